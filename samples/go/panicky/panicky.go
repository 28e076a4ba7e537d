// Package panicky holds the test that panics, alone, so the panic does not hide other results.
package panicky

// Lookup returns m[k] and panics on a nil map write.
func Lookup(m map[string]int, k string) int {
	var nilMap map[string]int
	nilMap[k] = m[k] // panics: assignment to entry in nil map
	return m[k]
}
