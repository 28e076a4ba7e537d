package com.example.alpha;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

/** Same simple class name and method name as com.example.beta.MathTest. */
public class MathTest {
    @Test
    public void adds() {
        assertEquals(2 + 2, 4);
    }
}
