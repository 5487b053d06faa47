package spec

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// sortByPlace sorts errs, the problems of data (a JSON document that
// decodes), by where their paths are in it: the offset at which the member
// or item of each path begins, else its closest enclosing one's (a member
// whose name the path shortens, short), as ErrorList is sorted by
// position. Problems at one place keep their order.
func sortByPlace(errs FieldErrors, data []byte) {
	at, _ := fieldOffsets(data)
	place := func(path string) int64 {
		for {
			if off, ok := at[path]; ok {
				return off
			}
			i := strings.LastIndexAny(path, ".[")
			if i < 0 {
				return 0
			}
			path = path[:i]
		}
	}
	slices.SortStableFunc(errs, func(a, b *FieldError) int {
		pa, pb := place(a.Path), place(b.Path)
		switch {
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
}

// fieldOffsets returns the byte offset in data at which each member and
// item begins, by its path as the decoder names it ("using.url",
// "monitor.and[1]"; "" for the document; an unknown member's name
// through short), the first of a name written
// twice; and the paths of the members written twice in one object, once
// each, in the order of their second writing.
func fieldOffsets(data []byte) (at map[string]int64, twice []string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	at = map[string]int64{}
	var value func(path string, off int64) bool
	value = func(path string, off int64) bool {
		if _, ok := at[path]; !ok {
			at[path] = off
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]int{}
			for dec.More() {
				off := dec.InputOffset()
				k, err := dec.Token()
				key, ok := k.(string)
				if err != nil || !ok {
					return false
				}
				// Named as the decoder names an unknown member
				// (short): the name is the user's, and a message
				// quotes it.
				name := join(path, short(key))
				if seen[key]++; seen[key] == 2 {
					twice = append(twice, name)
				}
				if !value(name, off) {
					return false
				}
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !value(index(path, i), dec.InputOffset()) {
					return false
				}
			}
		default:
			return true
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	value("", 0)
	return at, twice
}
