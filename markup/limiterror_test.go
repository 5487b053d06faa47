package markup_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestLimitErrorNamesTheOption: each limit's error is a *LimitError with
// the Options field and the limit, whose text names the field for Go
// callers and whose Err leaves it out.
func TestLimitErrorNamesTheOption(t *testing.T) {
	bomb := `<!DOCTYPE r [<!ENTITY a "xxxxxxxxxx"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>`
	for _, tc := range []struct {
		name, in, option string
		opt              markup.Options
		max              int64
	}{
		{"bytes", "<a>too long</a>", "MaxBytes", markup.Options{MaxBytes: 10}, 10},
		{"depth", strings.Repeat("<a>", 11) + strings.Repeat("</a>", 11), "MaxDepth", markup.Options{MaxDepth: 10}, 10},
		{"entity expansion", bomb, "MaxEntityExpansion", markup.Options{MaxEntityExpansion: 50}, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := markup.ParseXMLBytes([]byte(tc.in), &tc.opt)
			var le *markup.LimitError
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T), want a *markup.LimitError", err, err)
			}
			if le.Option != tc.option || le.Max != tc.max || !strings.Contains(err.Error(), "(Options."+tc.option+")") || strings.Contains(le.Err.Error(), "Options.") {
				t.Errorf("LimitError{Option: %q, Max: %d, Err: %q}, text %q; want option %q, max %d", le.Option, le.Max, le.Err, err, tc.option, tc.max)
			}
		})
	}
}
