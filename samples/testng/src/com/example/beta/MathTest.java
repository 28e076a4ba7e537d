package com.example.beta;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

/** Same simple class name and method name as com.example.alpha.MathTest. */
public class MathTest {
    @Test
    public void adds() {
        assertEquals(7 + 3, 10);
    }
}
