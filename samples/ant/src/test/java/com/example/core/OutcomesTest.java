package com.example.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Assume;
import org.junit.Ignore;
import org.junit.Test;

public class OutcomesTest {
    @Test
    public void passes() {
        assertTrue(true);
    }

    @Test
    public void failsWithAssertion() {
        // Fails: Ant writes <failure>.
        assertEquals("expected <b> & 'quoted' \"text\"", 3, 1 + 1);
    }

    @Test
    public void errorsWithException() {
        // Not an assertion: Ant writes <error>.
        throw new IllegalStateException("boom: état 日本");
    }

    @Test
    public void writesToStdout() {
        System.out.println("hello from stdout: é ü 日本 <>&");
        System.err.println("hello from stderr");
        assertTrue(true);
    }

    @Ignore("ignored on purpose")
    @Test
    public void ignored() {
        throw new AssertionError("never runs");
    }

    @Test
    public void assumptionFails() {
        Assume.assumeTrue("assumption not met, test skipped", false);
    }

    @Test
    public void unicodeNameÉüß日本() {
        assertTrue(true);
    }
}
