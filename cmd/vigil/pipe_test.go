package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pipeOf returns the reading end of a pipe that a goroutine fills with
// data, then closes; the reading end is closed when the test ends.
func pipeOf(t *testing.T, data []byte) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = w.Write(data) // fails once the reader stops, past a limit
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return r
}

// TestReadPipeAhead reads a piped standard input whole before the heap is
// reserved, in chunks, at sizes around a chunk's and the limit, and hands
// the command's read of "-" the same bytes, once.
func TestReadPipeAhead(t *testing.T) {
	other := writeFile(t, t.TempDir(), "other.xml", "") // within every limit
	for _, n := range []int{0, 1, pipeChunk - 1, pipeChunk, pipeChunk + 1, 3*pipeChunk + 5} {
		for _, limit := range []int64{1 << 30, int64(n), int64(n) - 1} {
			if limit < 0 {
				continue
			}
			data := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
			env := &environment{stdin: pipeOf(t, data)}
			counted := sizeInputsReadingPipe(env, limit, other, "-")
			if int64(n) > limit {
				// Refused when read, worded as a stream read without
				// reading ahead.
				_, err := readInput(env, "-", limit)
				_, want := readInput(&environment{stdin: bytes.NewReader(data)}, "-", limit)
				if err == nil || want == nil || err.Error() != want.Error() {
					t.Errorf("%d bytes, limit %d: %v, want %v", n, limit, err, want)
				}
				continue
			}
			if counted != int64(n) {
				t.Errorf("%d bytes, limit %d: %d bytes counted for the reservation", n, limit, counted)
			}
			if _, ok := env.stdin.(*pipedInput); !ok {
				t.Fatalf("%d bytes: standard input is a %T, not read ahead", n, env.stdin)
			}
			got, err := readInput(env, "-", limit)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%d bytes, limit %d: read %d bytes (%v)", n, limit, len(got), err)
			}
			if again, err := readInput(env, "-", limit); err != nil || len(again) != 0 {
				t.Errorf("%d bytes: read again %d bytes (%v), want none: the pipe is at its end", n, len(again), err)
			}
		}
	}
}

// TestPipeNotReadAhead leaves standard input to the command where reading
// it first would change what the user sees: not a pipe (a terminal would
// wait for typing), not named, or another input that the command refuses
// first (missing, a folder, over the limit).
func TestPipeNotReadAhead(t *testing.T) {
	dir := t.TempDir()
	small := writeFile(t, dir, "small.xml", "<a/>")
	big := writeFile(t, dir, "big.xml", "<a>"+strings.Repeat("x", 100)+"</a>")
	for _, tc := range []struct {
		name  string
		stdin func() io.Reader
		names []string
	}{
		{"a reader, not a pipe", func() io.Reader { return strings.NewReader("<a/>") }, []string{small, "-"}},
		{"- not named", func() io.Reader { return pipeOf(t, []byte("<a/>")) }, []string{small, small}},
		{"the other missing", func() io.Reader { return pipeOf(t, []byte("<a/>")) }, []string{"-", filepath.Join(dir, "missing.xml")}},
		{"the other a folder", func() io.Reader { return pipeOf(t, []byte("<a/>")) }, []string{"-", dir}},
		{"the other over the limit", func() io.Reader { return pipeOf(t, []byte("<a/>")) }, []string{"-", big}},
	} {
		stdin := tc.stdin()
		env := &environment{stdin: stdin}
		sizeInputsReadingPipe(env, 50, tc.names...)
		if env.stdin != stdin {
			t.Errorf("%s: standard input read ahead", tc.name)
		}
	}
}

// TestDiffPipedInput diffs a version piped on standard input as it does
// the same version named, and refuses one over --max-bytes with the error
// it gave before reading ahead.
func TestDiffPipedInput(t *testing.T) {
	v2, err := os.ReadFile(example + "v2.xml")
	if err != nil {
		t.Fatal(err)
	}
	code, want, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	if code != exitChanged {
		t.Fatalf("diff of the files: exit %d", code)
	}
	var out, errOut strings.Builder
	env := &environment{stdin: pipeOf(t, v2), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	if code := run(context.Background(), env, []string{"diff", example + "v1.xml", "-"}); code != exitChanged {
		t.Fatalf("diff of a piped version: exit %d: %s", code, errOut.String())
	}
	// The delta names its inputs: standard input here.
	if got := strings.Replace(out.String(), `to="&lt;stdin&gt;"`, `to="`+example+`v2.xml"`, 1); got != want {
		t.Errorf("diff of a piped version:\n%s\nwant, as of the file:\n%s", got, want)
	}
	errOut.Reset()
	v3, err := os.ReadFile(example + "v3.xml")
	if err != nil {
		t.Fatal(err)
	}
	// Read ahead only where the other input is within the limit.
	if fi, err := os.Stat(example + "v1.xml"); err != nil || fi.Size() > 400 || len(v3) <= 400 {
		t.Fatalf("v1.xml (%v) must be within --max-bytes 400 and v3.xml (%d bytes) over it", err, len(v3))
	}
	env = &environment{stdin: pipeOf(t, v3), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code = run(context.Background(), env, []string{"diff", "--max-bytes", "400", "-", example + "v1.xml"})
	if code != exitError || !strings.Contains(errOut.String(), "<stdin>: more than the limit of 400 bytes (--max-bytes)") {
		t.Errorf("a piped version over --max-bytes: exit %d: %s", code, errOut.String())
	}
}

// TestPipedInputErrorsInOrder: reading standard input ahead changes neither
// which error a command reports nor its words. A bad flag is refused
// without reading the pipe (which might be slow to end); an input named
// before "-" that the command refuses is reported before the pipe's own
// error (over --max-bytes here).
func TestPipedInputErrorsInOrder(t *testing.T) {
	dir := t.TempDir()
	binary := writeFile(t, dir, "bin.xml", "\x00\x01<a/>")
	over := bytes.Repeat([]byte("<a/>"), 300) // 1 200 bytes
	for _, tc := range []struct {
		args   []string
		want   string
		unread bool // the pipe is left as it was
	}{
		{[]string{"diff", "--max-bytes", "1000", "--whitespace", "bogus", example + "v1.xml", "-"}, `--whitespace "bogus": want normalize or keep`, true},
		{[]string{"diff", "--max-bytes", "0", example + "v1.xml", "-"}, "--max-bytes 0: want a positive number of bytes", true},
		{[]string{"diff", "--max-bytes", "1000", binary, "-"}, "binary input", false},
		{[]string{"diff", "--max-bytes", "1000", example + "v1.xml", "-"}, "<stdin>: more than the limit of 1000 bytes (--max-bytes)", false},
		{[]string{"patch", "--max-bytes", "1000", "--parse", "bogus", "-", example + "v1.xml"}, `--parse "bogus": want auto, xml or html`, true},
		{[]string{"patch", "--max-bytes", "1000", "-", example + "v1.xml"}, "<stdin>: more than the limit of 1000 bytes (--max-bytes)", false},
	} {
		var out, errOut strings.Builder
		stdin := pipeOf(t, over)
		env := &environment{stdin: stdin, stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		code := run(context.Background(), env, tc.args)
		if code != exitError || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d: %s, want %q", tc.args, code, errOut.String(), tc.want)
		}
		if tc.unread {
			if left, err := io.ReadAll(stdin); err != nil || len(left) != len(over) {
				t.Errorf("%q: %d bytes of %d left in the pipe (%v)", tc.args, len(left), len(over), err)
			}
		}
	}
}

// TestPipedInputRead reads standard input read ahead as a stream, chunk
// after chunk (an empty one too), or gives the error of reading it.
func TestPipedInputRead(t *testing.T) {
	p := &pipedInput{chunks: [][]byte{[]byte("<a>"), nil, []byte("x"), []byte("</a>")}}
	if b, err := io.ReadAll(p); err != nil || string(b) != "<a>x</a>" {
		t.Errorf("read %q (%v), want <a>x</a>", b, err)
	}
	if n, err := p.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Errorf("read at the end: %d, %v; want 0, EOF", n, err)
	}
	bad := errors.New("read failed")
	if _, err := io.ReadAll(&pipedInput{err: bad}); err != bad {
		t.Errorf("read of a failed pipe: %v, want %v", err, bad)
	}
}
