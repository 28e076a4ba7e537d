package com.example.core;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** TestNG has no nested-suite concept; static nested classes are listed in testng.xml. */
public class NestedTest {
    @Test
    public void outerPasses() {
        assertTrue(true);
    }

    public static class Inner {
        @Test
        public void innerPasses() {
            assertEquals("a", "a");
        }

        @Test
        public void innerFails() {
            assertEquals("outer", "inner");
        }
    }
}
