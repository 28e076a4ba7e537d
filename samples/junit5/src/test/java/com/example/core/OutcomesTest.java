package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

@Tag("core")
class OutcomesTest {
    @Test
    void passes() {
        assertTrue(true);
    }

    @Test
    @Tag("slow")
    void failsWithAssertion() {
        assertEquals(3, 1 + 1, "expected <b> & 'quoted' \"text\"");
    }

    @Test
    void errorsWithException() {
        // Not an assertion: the legacy XML writes <error>, Open Test Reporting FAILED with the throwable's type.
        throw new IllegalStateException("boom: état 日本");
    }

    @Test
    void writesToStdout() {
        System.out.println("hello from stdout: é ü 日本 <>&");
        System.err.println("hello from stderr");
        assertTrue(true);
    }

    @Test
    void publishesEntries(TestReporter reporter) {
        reporter.publishEntry(Map.of("ticket", "SHOP-T7"));
        assertTrue(true);
    }

    @Disabled("disabled on purpose")
    @Test
    void disabled() {
        throw new AssertionError("never runs");
    }

    @Test
    void assumptionFails() {
        assumeTrue(false, "assumption not met, test aborted");
    }

    @Test
    @DisplayName("handles \"quotes\", 'single', <b>&amp; emoji 🚀 and é ü 日本")
    void specialCharacters() {
        assertTrue(true);
    }
}
