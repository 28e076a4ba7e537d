package com.example.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParamsTest {
    @ParameterizedTest
    @ValueSource(strings = {"a\"b", "<x>&", "fail"})
    void matches(String input) {
        assertTrue(!input.equals("fail"), "input was " + input);
    }
}
