package com.example.core;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.Reporter;
import org.testng.SkipException;
import org.testng.annotations.Test;

public class OutcomesTest {
    @Test
    public void passes() {
        assertTrue(true);
    }

    @Test(description = "fails: expected <b> & 'quoted' \"text\"")
    public void failsWithAssertion() {
        assertEquals(1 + 1, 3, "expected <b> & 'quoted' \"text\"");
    }

    @Test
    public void errorsWithException() {
        // Not an assertion; TestNG itself does not tell errors from failures.
        throw new IllegalStateException("boom: état 日本");
    }

    @Test(dependsOnMethods = "failsWithAssertion")
    public void skippedByDependency() {
        // Never runs: TestNG reports it as SKIP because failsWithAssertion failed.
        assertTrue(true);
    }

    @Test
    public void skippedByException() {
        throw new SkipException("skipped on purpose");
    }

    @Test(enabled = false)
    public void disabled() {
        // enabled=false: TestNG does not run it and does not report it anywhere.
        throw new AssertionError("never runs");
    }

    @Test
    public void writesToStdout() {
        System.out.println("hello from stdout: é ü 日本 <>&");
        Reporter.log("hello from Reporter.log: é ü 日本 <>& \uD83D\uDE80");
        assertTrue(true);
    }

    @Test(description = "non-ASCII name é ü 日本 \uD83D\uDE80")
    public void unicodeNameÉüß日本() {
        assertTrue(true);
    }
}
