// Package mathutil is a tiny library for the testcycle Go sample.
package mathutil

// Add returns a + b.
func Add(a, b int) int { return a + b }

// IsSmall reports whether n is below 3.
func IsSmall(n int) bool { return n < 3 }
