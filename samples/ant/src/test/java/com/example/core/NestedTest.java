package com.example.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;

/**
 * JUnit 4 has no @Nested: nested classes run with the Enclosed runner (an Enclosed
 * class runs only its inner classes). Ant reports NestedTest$Outer and
 * NestedTest$Deeper$Inner.
 */
@RunWith(Enclosed.class)
public class NestedTest {
    public static class Outer {
        @Test
        public void outerPasses() {
            assertTrue(true);
        }
    }

    @RunWith(Enclosed.class)
    public static class Deeper {
        public static class Inner {
            @Test
            public void innerPasses() {
                assertEquals("a", "a");
            }

            @Test
            public void innerFails() {
                assertEquals("inner", "outer");
            }
        }
    }
}
