package com.example.core;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * Fails on its first attempt and passes when surefire re-runs it
 * (-Dsurefire.rerunFailingTestsCount=1). The re-run happens in the same forked
 * JVM, so an in-process counter makes this deterministic.
 */
public class FlakyTest {
    private static int attempts = 0;

    @Test
    public void passesOnRetry() {
        attempts++;
        System.out.println("flaky attempt " + attempts);
        assertTrue("first attempt fails (attempt " + attempts + ")", attempts > 1);
    }

    @Test
    public void stable() {
        assertTrue(true);
    }
}
