// Package strutil is a second package for the testcycle Go sample.
package strutil

import "strings"

// Shout upper-cases s.
func Shout(s string) string { return strings.ToUpper(s) }
