// Package initpanic panics while it starts, before any test runs.
package initpanic

import "testing"

var config = load()

func load() map[string]string {
	panic("config file not found")
}

func TestReadsConfig(t *testing.T) {
	if config == nil {
		t.Fatal("no config")
	}
}
