package com.example.core;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** Three invocations: pass, pass, fail. Parameters carry quotes, <>&, emoji and non-ASCII text. */
public class DataProviderTest {
    @DataProvider(name = "labels")
    public Object[][] labels() {
        return new Object[][] {
            {"double \"quotes\" and 'single'", 2, 2},
            {"markup <>& and emoji \uD83D\uDE80", 3, 3},
            {"non-ASCII é ü 日本", 4, 5},
        };
    }

    @Test(dataProvider = "labels")
    public void matches(String label, int actual, int expected) {
        assertEquals(actual, expected, label);
    }
}
