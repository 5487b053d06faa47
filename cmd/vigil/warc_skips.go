package main

import (
	"cmp"
	"fmt"
	"mime"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/vigil-web/vigil/internal/warc"
)

// The kinds of records import warc skips that are not named by their
// WARC-Type (skipKind).
const (
	skipStale   = "no newer than the store's history"
	skipUndated = "dated where no store keeps a time"
)

// skips counts the records import warc skipped, by kind: the WARC-Type of
// a record it does not import (skipKind), or why it skipped one it reads
// (skipStale, skipUndated). Its zero value counts none.
type skips map[string]int

// add counts one record of kind.
func (s *skips) add(kind string) {
	if *s == nil {
		*s = skips{}
	}
	(*s)[kind]++
}

// total returns how many records were skipped.
func (s skips) total() int {
	n := 0
	for _, k := range s {
		n += k
	}
	return n
}

// String returns the kinds and their counts, the most first, kinds of as
// many in the order of their names: "10 request, 2 metadata"; "" for
// none. The kinds are read from the file (a WARC-Type, a scheme, a
// Content-Type): at most maxSkipKinds are named, the rest counted ("12 records
// of 9 other kinds"), each cut at maxSkipKind characters and quoted when
// it holds one that is not printable, so that a file of garbage records
// does not make the summary as long as itself, or write a terminal's
// escapes.
func (s skips) String() string {
	kinds := make([]string, 0, len(s))
	for k := range s {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(s[b]-s[a], strings.Compare(a, b)) })
	var parts []string
	for i, k := range kinds {
		if i == maxSkipKinds && len(kinds) > maxSkipKinds+1 {
			rest := 0
			for _, k := range kinds[i:] {
				rest += s[k]
			}
			parts = append(parts, fmt.Sprintf("%s of %d other kinds", count(rest, "record"), len(kinds)-i))
			break
		}
		parts = append(parts, strconv.Itoa(s[k])+" "+kindName(k))
	}
	return strings.Join(parts, ", ")
}

// maxSkipKinds and maxSkipKind bound the kinds of skipped records the
// summary names, and the characters of each (skips.String).
const (
	maxSkipKinds = 6
	maxSkipKind  = 40
)

// kindName is kind as the summary writes it: cut at maxSkipKind
// characters, quoted when it holds a character that is not printable.
func kindName(kind string) string {
	if r := []rune(kind); len(r) > maxSkipKind {
		kind = string(r[:maxSkipKind]) + "…"
	}
	if strings.ContainsFunc(kind, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(kind)
	}
	return kind
}

// skipKind names the kind of rec, a record import warc does not import
// (importable), as the summary counts it: its WARC-Type in lower case
// ("request", "metadata", "warcinfo"), "untyped" without one; of a record
// of a type it imports, why not: a URL that is no page's, by its scheme
// ("response (dns:)"), a resource holding an HTTP request ("request"), a
// response of another Content-Type than an HTTP message's ("response
// (text/dns)").
func skipKind(rec *warc.Record) string {
	typ := strings.ToLower(strings.TrimSpace(rec.Type()))
	if typ == "" {
		return "untyped"
	}
	target := strings.TrimPrefix(strings.TrimSpace(rec.Header.Get(warc.FieldTargetURI)), "<")
	if scheme, _, ok := strings.Cut(target, ":"); ok && !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return typ + " (" + strings.ToLower(scheme) + ":)"
	}
	ct := rec.Header.Get(warc.FieldContentType)
	switch typ {
	case warc.TypeResource:
		if _, params, _ := mime.ParseMediaType(ct); httpMessage(ct) && strings.EqualFold(params["msgtype"], "request") {
			return "request"
		}
	case warc.TypeResponse, warc.TypeRevisit:
		if mt, _, err := mime.ParseMediaType(ct); err == nil && !strings.Contains(mt, "http") {
			return typ + " (" + mt + ")"
		}
	}
	return typ
}
