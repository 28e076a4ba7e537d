package com.example.alpha;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Same simple class name and method name as com.example.beta.MathTest. */
public class MathTest {
    @Test
    public void adds() {
        assertEquals(4, 2 + 2);
    }
}
