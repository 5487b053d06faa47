package delta

import (
	"strings"
	"testing"
)

// TestMessagesShowTheDifference: two long values that differ late read
// differently in a message; a delta declaring another encoding than UTF-8
// is refused in words, not with the XML package's internals.
func TestMessagesShowTheDifference(t *testing.T) {
	a := "\n  sysmon-config | A sysmon configuration focused on default high-quality event tracing, version 1"
	b := "\n  sysmon-config | A sysmon configuration focused on default high-quality event tracing, version 2"
	x, y := clipPair(a, b)
	if x == y || !strings.HasSuffix(x, "version 1") || !strings.HasSuffix(y, "version 2") {
		t.Errorf("clipPair: %q, %q", x, y)
	}
	if x, y := clipPair("short", "other"); x != "short" || y != "other" {
		t.Errorf("clipPair of short values: %q, %q", x, y)
	}
	if c := clip(strings.Repeat("é", 30)); !strings.HasSuffix(c, "...") || !strings.HasPrefix(c, "é") || strings.ContainsRune(c, '\uFFFD') {
		t.Errorf("clip cut a character: %q", c)
	}
	_, err := DecodeXML(strings.NewReader(`<?xml version="1.0" encoding="ISO-8859-1"?><unit_delta><t></t></unit_delta>`))
	if err == nil || !strings.Contains(err.Error(), `a delta file is UTF-8; this one declares the encoding "ISO-8859-1"`) || strings.Contains(err.Error(), "CharsetReader") {
		t.Errorf("a delta in ISO-8859-1: %v", err)
	}
	if _, err := DecodeXML(strings.NewReader(`<?xml version="1.0" encoding="utf-8"?><unit_delta><t></t></unit_delta>`)); err != nil {
		t.Errorf("a delta declaring utf-8: %v", err)
	}
}
