// Package crawltest serves the site corpus, two releases of Git's HTML
// documentation, from a static web server on loopback, for the tests of
// the crawler (internal/crawl) and of the commands built on it (vigil
// site crawl, vigil site diff), and writes small PDFs as a generator does
// (pdf.go) and PNGs as a chart generator does (png.go). It is for tests
// only.
package crawltest

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The two releases of the corpus and their dates (the corpus README gives
// the commits).
const (
	OldRelease = "v2.30.0"
	NewRelease = "v2.31.0"
)

var (
	OldDate = time.Date(2020, 12, 27, 0, 0, 0, 0, time.UTC)
	NewDate = time.Date(2021, 3, 17, 0, 0, 0, 0, time.UTC)
)

// The corpus is the shared corpus's site, found beside the repository as
// the other corpus tests find it (../shared/corpus from the module root);
// the archive is the same site, whole, in the repository (what CI has): a
// tar file compressed by zstd with a window spanning both releases, 0.8
// MB for 17 MB.
const (
	corpusSite  = "../shared/corpus/site-git-htmldocs"
	siteArchive = "testdata/corpus/site-git-htmldocs.tar.zst"
)

// Release is the files of one release, by URL path ("/git.html").
type Release map[string][]byte

// Decompress is a zstd decoder, such as internal/zstd's: this package may
// not import an adapter.
type Decompress func([]byte) ([]byte, error)

var (
	releasesOnce sync.Once
	releases     map[string]Release
	releasesErr  error
)

// Corpus returns the two releases, by name: from the shared corpus beside
// the repository, or else from the repository's archive of it, read with
// decompress. They are read once and shared; they must not be modified.
func Corpus(decompress Decompress) (map[string]Release, error) {
	releasesOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			releasesErr = err
			return
		}
		dir := filepath.Join(root, filepath.FromSlash(corpusSite))
		if _, err := os.Stat(dir); err != nil {
			releases, releasesErr = readArchive(filepath.Join(root, filepath.FromSlash(siteArchive)), dir, decompress)
			return
		}
		releases = map[string]Release{}
		for _, name := range []string{OldRelease, NewRelease} {
			r, err := readRelease(filepath.Join(dir, name))
			if err != nil {
				releasesErr = err
				return
			}
			releases[name] = r
		}
	})
	return releases, releasesErr
}

// moduleRoot returns the directory of go.mod above the working directory
// (a test runs in its package's directory).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("crawltest: no go.mod above the working directory")
		}
		dir = up
	}
}

// readArchive reads both releases from the tar.zst archive of the site
// (site-git-htmldocs/RELEASE/PATH).
func readArchive(name, dir string, decompress Decompress) (map[string]Release, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("the site corpus is neither at %s nor at %s: %w", dir, name, err)
	}
	if data, err = decompress(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]Release{OldRelease: {}, NewRelease: {}}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rel, file, _ := strings.Cut(strings.TrimPrefix(h.Name, "site-git-htmldocs/"), "/")
		r, ok := out[rel]
		if h.Typeflag != tar.TypeReg || !ok {
			continue
		}
		if r["/"+file], err = io.ReadAll(tr); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, h.Name, err)
		}
	}
}

func readRelease(dir string) (Release, error) {
	r := Release{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		r["/"+filepath.ToSlash(rel)] = b
		return err
	})
	return r, err
}

// ReleaseDates gives each file of cur the date of the release that last
// changed it: oldDate if it is byte for byte in old, else date.
func ReleaseDates(cur, old Release, oldDate, date time.Time) map[string]time.Time {
	out := map[string]time.Time{}
	for p, b := range cur {
		if ob, ok := old[p]; ok && bytes.Equal(ob, b) {
			out[p] = oldDate
		} else {
			out[p] = date
		}
	}
	return out
}
