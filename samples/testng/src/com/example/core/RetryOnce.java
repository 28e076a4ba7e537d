package com.example.core;

import org.testng.IRetryAnalyzer;
import org.testng.ITestResult;

/** Retries a failed test once. */
public class RetryOnce implements IRetryAnalyzer {
    private int retries = 0;

    @Override
    public boolean retry(ITestResult result) {
        if (retries < 1) {
            retries++;
            return true;
        }
        return false;
    }
}
