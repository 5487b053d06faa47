package markup_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// archive is a txtar archive: a comment, then files introduced by
// "-- name --" lines.
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct{ name, data string }

func parseArchive(s string) archive {
	var a archive
	cur := -1
	for _, line := range strings.SplitAfter(s, "\n") {
		if t := strings.TrimRight(line, "\n"); strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			a.files = append(a.files, archiveFile{name: t[3 : len(t)-3]})
			cur = len(a.files) - 1
			continue
		}
		if cur < 0 {
			a.comment += line
		} else {
			a.files[cur].data += line
		}
	}
	return a
}

func (a archive) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n" + f.data)
		if !strings.HasSuffix(f.data, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (a archive) get(name string) (string, bool) {
	for _, f := range a.files {
		if f.name == name {
			return f.data, true
		}
	}
	return "", false
}

// TestGolden parses the input of each testdata/golden/*.txtar file under
// both white-space policies and compares what the writers produce with the
// files of the archive: normalize.xml (or .html) and keep.xml, written
// compactly, and indent.xml, the normalised tree written with indentation.
// go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(string(raw))
			ext := ".xml"
			in, ok := a.get("input.xml")
			if !ok {
				ext = ".html"
				if in, ok = a.get("input.html"); !ok {
					t.Fatal("no input.xml or input.html")
				}
			}
			out := archive{comment: a.comment, files: []archiveFile{{"input" + ext, in}}}
			for _, c := range []struct {
				name string
				opt  *markup.Options
				wopt *markup.WriteOptions
			}{
				{"normalize" + ext, nil, nil},
				{"keep" + ext, keep, nil},
				{"indent" + ext, nil, &markup.WriteOptions{Indent: "  "}},
			} {
				d, format, err := markup.ParseBytes([]byte(in), c.opt)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if format == markup.XML {
					err = markup.WriteXML(&b, d, c.wopt)
				} else {
					err = markup.WriteHTML(&b, d, c.wopt)
				}
				if err != nil {
					t.Fatal(err)
				}
				got := b.String()
				out.files = append(out.files, archiveFile{c.name, got})
				if *update {
					continue
				}
				want, ok := a.get(c.name)
				if !ok {
					t.Errorf("%s missing; run go test -run TestGolden -update", c.name)
					continue
				}
				if strings.TrimSuffix(got, "\n") != strings.TrimSuffix(want, "\n") {
					t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, got, want)
				}
			}
			if *update {
				if err := os.WriteFile(path, []byte(out.format()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
