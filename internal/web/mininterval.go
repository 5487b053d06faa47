package web

import (
	"fmt"
	"regexp"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// A sentinel may say "Fetch 1 second", but the monitor checks it at most
// every Server.MinInterval (vigil serve --min-interval): the sentinel is
// valid, and the answers that show it say the interval it gets.

// fetchWarning returns the warning of a checked sentinel's Fetch clause
// shorter than s.MinInterval ("Fetch 1 second: this server checks at most
// every 1 minute (--min-interval)"), or "" for none: a clause within the
// bound, Fetch on change (adaptive, bounded the same way without being
// asked for an interval), or a server that does not say its bound.
func (s *Server) fetchWarning(fetch *spec.FetchClause) string {
	if s.MinInterval <= 0 || fetch == nil || fetch.OnChange || fetch.Interval == nil {
		return ""
	}
	if d, ok := fetch.Interval.Std(); !ok || d >= s.MinInterval {
		return ""
	}
	return fmt.Sprintf("Fetch %s: this server checks at most every %s (--min-interval)", fetch.Interval.Duration, durationWords(s.MinInterval))
}

// storedFetchWarnings returns the warnings of a stored sentinel's Fetch
// clause (fetchWarning), as its checked form c, decoded from the store
// (storedChecked), has it; none if c is nil (the form does not read).
func (s *Server) storedFetchWarnings(c *spec.Checked) []string {
	if c == nil || c.Sentinel == nil {
		return nil
	}
	if w := s.fetchWarning(c.Sentinel.Fetch); w != "" {
		return []string{w}
	}
	return nil
}

// fetchDiagnostic returns the live check's warning of ch's Fetch clause
// (fetchWarning), placed at its interval in src when parsed states it
// there, naming its field when it was sent as JSON (src empty); the
// clause of a parent has no place in src.
func (s *Server) fetchDiagnostic(parsed *spec.Sentinel, ch *spec.Checked, src string) (Diagnostic, bool) {
	msg := s.fetchWarning(ch.Sentinel.Fetch)
	if msg == "" {
		return Diagnostic{}, false
	}
	d := Diagnostic{Message: msg}
	if parsed.Fetch == nil || parsed.Fetch.Interval == nil {
		if ch.Parent != "" {
			d.Message += " (the Fetch clause of " + ch.Parent + ")"
		}
		return d, true
	}
	if src == "" {
		d.Field = "fetch.interval"
		return d, true
	}
	pos := parsed.Fetch.Interval.ValuePos
	if pos.Offset < 0 || pos.Offset > len(src) {
		return d, true
	}
	d.Line, d.Column, d.Offset, d.End = pos.Line, pos.Column, pos.Offset, pos.Offset
	if m := writtenInterval.FindStringIndex(src[pos.Offset:]); m != nil {
		d.End += m[1]
	}
	return d, true
}

// writtenInterval is an interval as the source writes it, "1 second",
// at the start of the text.
var writtenInterval = regexp.MustCompile(`^[0-9]+[ \t]*[\p{L}]+`)

// durationWords says d in its largest whole unit of the sentinel language
// ("1 minute", "90 seconds", "2 hours"); a fraction of a second as Go
// writes it.
func durationWords(d time.Duration) string {
	for _, u := range []struct {
		unit   spec.Unit
		length time.Duration
	}{{spec.Week, 7 * 24 * time.Hour}, {spec.Day, 24 * time.Hour}, {spec.Hour, time.Hour}, {spec.Minute, time.Minute}, {spec.Second, time.Second}} {
		if d > 0 && d%u.length == 0 {
			return spec.Duration{N: int64(d / u.length), Unit: u.unit}.String()
		}
	}
	return d.String()
}
