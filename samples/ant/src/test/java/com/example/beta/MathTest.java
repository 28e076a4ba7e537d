package com.example.beta;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Same simple class name and method name as com.example.alpha.MathTest. */
public class MathTest {
    @Test
    public void adds() {
        assertEquals(10, 7 + 3);
    }
}
