package com.example.core;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collection;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** Three invocations: pass, pass, fail. Names carry quotes, <>&, emoji and non-ASCII text. */
@RunWith(Parameterized.class)
public class ParamsTest {
    @Parameters(name = "{index}: {0}")
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {
            {"double \"quotes\" and 'single'", 2, 2},
            {"markup <>& and emoji \uD83D\uDE80", 3, 3},
            {"non-ASCII é ü 日本", 4, 5},
        });
    }

    private final String label;
    private final int actual;
    private final int expected;

    public ParamsTest(String label, int actual, int expected) {
        this.label = label;
        this.actual = actual;
        this.expected = expected;
    }

    @Test
    public void matches() {
        assertEquals(label, expected, actual);
    }
}
