package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NestedTest {
    @Test
    void outer() {
        assertEquals(2, 1 + 1);
    }

    @Nested
    class Inner {
        @Test
        void inner() {
            assertEquals(4, 2 + 2);
        }

        @Nested
        class Deeper {
            @Test
            void deepest() {
                assertEquals(6, 3 + 3);
            }
        }
    }
}
