package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.net.URI;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class DynamicCasesTest {
    // Each dynamic test names the line of the data file it comes from: a FileSource with a position.
    @TestFactory
    Stream<DynamicTest> casesFromFile() {
        return Stream.of(
            dynamicTest("1 + 1 = 2", URI.create("file:src/test/resources/cases.txt?line=1"), () -> assertEquals(2, 1 + 1)),
            dynamicTest("2 + 2 = 5", URI.create("file:src/test/resources/cases.txt?line=2"), () -> assertEquals(5, 2 + 2)));
    }
}
