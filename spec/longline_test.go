package spec

import (
	"runtime"
	"strings"
	"testing"
)

// TestLongLineReadOnce: the messages that read ahead on the line of a
// mistake (a time of day after a date, a value condition as English
// says it, a name of several words) read a few words of it, not the
// rest of the line: a line of a megabyte holding a date with a time a
// sentinel (From 1/1/2030 9am From 1/1/2030 9am ...) copied the rest of
// the line at each date, gigabytes, and took minutes to parse. (A name
// of several words read the line without copying it: its case fails
// only by the time it takes, seconds for this one, hours for 10 MB.)
func TestLongLineReadOnce(t *testing.T) {
	for name, src := range map[string]string{
		"time of day": "Create Sentinel a Using b" + strings.Repeat(" From 1/1/2030 9am", 20000),
		"date":        "Create Sentinel a Using b" + strings.Repeat(" From 1/1/2030", 20000),
		"condition":   "Create Sentinel a Using b" + strings.Repeat(` Monitor value In css "p" above 1`, 20000),
		"title":       strings.Repeat("Create Sentinel a b ", 20000),
		// Each Using after a long target copied that target's text.
		"second Using": "Create Sentinel a Using http://a.example/" + strings.Repeat("p", 100000) + strings.Repeat(" Using b", 20000),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			Parse("f.ssl", []byte(src))
			runtime.ReadMemStats(&after)
			// Parsing allocates a few hundred bytes a byte of input;
			// copying the rest of the line at each mistake, some
			// thousand times more.
			if got := after.TotalAlloc - before.TotalAlloc; got > 1000*uint64(len(src)) {
				t.Errorf("Parse allocated %d bytes for %d bytes of input", got, len(src))
			}
		})
	}
}

// TestLineErrorsRecordedOnce: the scanner's errors after the first of
// a line (a megabyte of ";" or "$") are not recorded, a few a line
// where they were one a character, sorted then thrown away, and the
// errors told are those told when each was recorded.
func TestLineErrorsRecordedOnce(t *testing.T) {
	const semicolon = `illegal character ';': clauses and sentinels end without ";": remove it`
	for _, tt := range []struct {
		name, src string
		want      string
	}{
		{"semicolons", "Create Sentinel s Using http://a.example Monitor keywords {a" + strings.Repeat(";", 200000) + "}",
			"f.ssl:1:61: " + semicolon + "\n"},
		{"dollars", "Create Sentinel s Using http://a.example Monitor any change " + strings.Repeat("$", 200000),
			"f.ssl:1:61: illegal character '$'\n"},
		{"semicolons and dollars", "Create Sentinel s Using http://a.example Monitor any change " + strings.Repeat(";$", 100000),
			"f.ssl:1:61: " + semicolon + "\n"},
		// Each byte not UTF-8 in a string in typographic quotes was
		// an error at the string, with the text up to the byte: a
		// megabyte's took the square of its length in memory.
		{"a typographic string of bytes not UTF-8", "Create Sentinel s Using http://a.example Monitor phrase {“" + strings.Repeat("\xff", 5000) + "”}",
			"f.ssl:1:58: string is not valid UTF-8\n"},
		{"a list of lines", "Create Sentinel s Using http://a.example\nMonitor keywords {a;\nb" + strings.Repeat(";", 100000) + "c}\n" + strings.Repeat("Notify By x@y.example;;;\n", 3),
			"f.ssl:2:20: " + semicolon + "\nf.ssl:3:2: " + semicolon + "\nf.ssl:4:22: " + semicolon + "\nf.ssl:5:1: duplicate Notify clause\nf.ssl:6:1: duplicate Notify clause\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newParser("f.ssl", []byte(tt.src), MaxErrors)
			p.parseFile()
			// Each ";" or "$" was recorded: 100,000 errors and more.
			if len(p.errors) > 20 {
				t.Errorf("%d errors recorded, want at most 20", len(p.errors))
			}
			_, err := Parse("f.ssl", []byte(tt.src))
			if list, ok := err.(ErrorList); !ok || list.String() != tt.want {
				t.Errorf("Parse: %v\nwant:\n%s", err, tt.want)
			}
		})
	}
}
