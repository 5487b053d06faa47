package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
)

// maxNamed is the number of records that cannot be imported that
// importWARC names one by one: the first in the file.
const maxNamed = 20

// importFailures are the records of an import that cannot be imported:
// the first maxNamed in the file, named, and a count of the others by
// kind of problem. They are met in the order of their dates (the
// spool's), and named in the order of the file.
type importFailures struct {
	total int
	named []importFailure // by number, at most maxNamed
	rest  map[string]int  // the records not named: kind -> count
}

// importFailure is a record that cannot be imported: its number in the
// file, its kind of problem (badRecord.kind), and the line that names it
// ("record 4 at offset 1200 (urn:uuid:...): no WARC-Target-URI").
type importFailure struct {
	n          int
	kind, line string
}

// add counts record n, of the given kind, named by line.
func (f *importFailures) add(n int, kind, line string) {
	f.total++
	i := sort.Search(len(f.named), func(i int) bool { return f.named[i].n > n })
	if i < maxNamed {
		// One of the first maxNamed met so far: the last of them, if
		// there were maxNamed already, is counted instead.
		f.named = slices.Insert(f.named, i, importFailure{n, kind, line})
		if len(f.named) <= maxNamed {
			return
		}
		kind, f.named = f.named[maxNamed].kind, f.named[:maxNamed]
	}
	if f.rest == nil {
		f.rest = map[string]int{}
	}
	f.rest[kind]++
}

// write writes the records named, a line each after the name of their
// file (fileOf of their number), and a line for each kind of problem of
// the others, the most frequent first.
func (f *importFailures) write(w io.Writer, fileOf func(n int) string) {
	for _, x := range f.named {
		fmt.Fprintf(w, "%s: %s; not imported\n", fileOf(x.n), x.line)
	}
	kinds := slices.SortedFunc(maps.Keys(f.rest), func(a, b string) int {
		return cmp.Or(cmp.Compare(f.rest[b], f.rest[a]), cmp.Compare(a, b))
	})
	for _, k := range kinds {
		fmt.Fprintf(w, "%d more %s not imported: %s\n", f.rest[k], plural(f.rest[k], "record", "records"), k)
	}
}

// summary says how many records could not be imported, and that they
// are named (the first maxNamed of them if there are more).
func (f *importFailures) summary() string {
	if f.total > len(f.named) {
		return fmt.Sprintf("%s could not be imported (the first %d named above)", count(f.total, "record"), len(f.named))
	}
	return fmt.Sprintf("%s could not be imported (named above)", count(f.total, "record"))
}
