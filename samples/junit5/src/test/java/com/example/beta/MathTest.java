package com.example.beta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MathTest {
    @Test
    void adds() {
        assertEquals(3, 1 + 1);
    }
}
