package main

import (
	"cmp"
	"mime"
	"slices"
	"strconv"
	"strings"

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
// none.
func (s skips) String() string {
	kinds := make([]string, 0, len(s))
	for k := range s {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(s[b]-s[a], strings.Compare(a, b)) })
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = strconv.Itoa(s[k]) + " " + k
	}
	return strings.Join(parts, ", ")
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
		if mt, _, err := mime.ParseMediaType(ct); err == nil && !strings.Contains(ct, "http") {
			return typ + " (" + mt + ")"
		}
	}
	return typ
}
