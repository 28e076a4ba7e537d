package com.example.alpha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MathTest {
    @Test
    void adds() {
        assertEquals(2, 1 + 1);
    }
}
