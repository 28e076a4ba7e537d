package com.example.core;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** Fails on its first attempt, passes on the retry driven by RetryOnce (in-process counter). */
public class FlakyTest {
    private static int attempts = 0;

    @Test(retryAnalyzer = RetryOnce.class)
    public void passesOnRetry() {
        attempts++;
        System.out.println("flaky attempt " + attempts);
        assertTrue(attempts > 1, "first attempt fails (attempt " + attempts + ")");
    }
}
