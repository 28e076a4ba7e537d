package com.example.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BrokenSetupTest {
    @BeforeAll
    static void connect() {
        // The class fails before any test starts: its tests are never reported, only the failed container.
        throw new IllegalStateException("database connection refused");
    }

    @Test
    void neverRuns() {
        assertTrue(true);
    }
}
