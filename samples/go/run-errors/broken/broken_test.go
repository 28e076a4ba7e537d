// Package broken does not compile: go test reports a build failure and runs none of its tests.
package broken

import "testing"

func TestTotals(t *testing.T) {
	if total([]int{1, 2}) != 3 {
		t.Fatal("wrong total")
	}
}
