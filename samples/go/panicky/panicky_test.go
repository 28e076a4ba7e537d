package panicky

import "testing"

func TestBeforePanic(t *testing.T) {}

func TestPanics(t *testing.T) {
	Lookup(map[string]int{"a": 1}, "a")
}
