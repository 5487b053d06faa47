package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestWARCImportTwiceAtOnce: two imports of one file at once store each
// version once, on both backends, in one transaction or record by record,
// as an import of a file imported before adds nothing. Each read a page's
// history before the other had written it (or committed it), and then
// appended its versions after the other's: every version twice.
func TestWARCImportTwiceAtOnce(t *testing.T) {
	testWARCImportTwiceAtOnce(t, 12, 6)
}

// TestWARCImportTwiceAtOnceOneRecordEach: two imports at once of a file
// whose pages have one record each say together that they imported each
// version once, record by record too: an import whose first append to a
// page came back as the other's version, the page's newest, counted it
// as its own.
func TestWARCImportTwiceAtOnceOneRecordEach(t *testing.T) {
	testWARCImportTwiceAtOnce(t, 60, 1)
}

// testWARCImportTwiceAtOnce imports twice at once a file of times
// records of each of urls pages.
func testWARCImportTwiceAtOnce(t *testing.T, urls, times int) {
	var recs []foreignRecord
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range times {
		date := t0.Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
		var us []string
		for u := range urls {
			us = append(us, fmt.Sprintf("http://example.com/p%d", u))
		}
		recs = append(recs, pages(date, us...)...)
	}
	file := writeForeignWARC(t, true, recs...)
	importedRe := regexp.MustCompile(`imported (\d+) versions?`)
	for _, b := range importBackends {
		for _, mode := range [][]string{nil, {"--keep-partial"}} {
			t.Run(b.name+strings.Join(mode, ""), func(t *testing.T) {
				store := b.args(t)
				if b.name == "sqlite" {
					// Made first: the two imports race on the pages, not on
					// making the store.
					st := openFlags(t, store)
					st.Close()
				}
				type result struct {
					out, errOut string
					code        int
				}
				var results [2]result
				var wg sync.WaitGroup
				for i := range results {
					wg.Go(func() {
						args := append(append(append([]string{"import", "warc"}, store...), mode...), file)
						out, errOut, code := runCmd(t, nil, args...)
						results[i] = result{out, errOut, code}
					})
				}
				wg.Wait()
				imported := 0
				for _, r := range results {
					if r.code != exitOK {
						// An import in one transaction on SQLite is refused
						// while another holds the data directory.
						if b.name == "sqlite" && mode == nil && strings.Contains(r.errOut, "is importing into the data directory") {
							continue
						}
						t.Fatalf("import: exit %d\n%s%s", r.code, r.out, r.errOut)
					}
					m := importedRe.FindStringSubmatch(r.out + r.errOut)
					if m == nil {
						t.Fatalf("import says not how many it imported:\n%s%s", r.out, r.errOut)
					}
					n, _ := strconv.Atoi(m[1])
					imported += n
				}
				st := openFlags(t, store)
				rs, _, err := st.FindResources(t.Context(), vigil.ResourceFilter{})
				if err != nil {
					t.Fatal(err)
				}
				total := 0
				for _, r := range rs {
					vs, _, err := st.FindVersions(t.Context(), vigil.VersionFilter{ResourceID: r.ID})
					if err != nil {
						t.Fatal(err)
					}
					seen := map[time.Time]bool{}
					for _, v := range vs {
						if seen[v.FetchedAt] {
							t.Errorf("%s: the version fetched at %s is stored twice", r.URL, v.FetchedAt)
						}
						seen[v.FetchedAt] = true
					}
					total += len(vs)
				}
				if len(rs) != urls || total != urls*times {
					t.Errorf("%d pages, %d versions stored; want %d and %d", len(rs), total, urls, urls*times)
				}
				if imported != urls*times {
					// Each says what it added.
					t.Errorf("the two imports say they imported %d versions; want %d", imported, urls*times)
				}
			})
		}
	}
}
