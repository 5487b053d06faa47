package vigil_test

// This file is a statement of policy: the import rules of
// ../shared/ARCHITECTURE.md, checked with `go list -deps`. Do not change it
// to fix a build; change the code, or argue for a new rule in a review.

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/vigil-web/vigil"

// libraries are public packages usable without the daemon. They import the
// standard library, the golang.org/x packages named in allowedLibraryDeps, and
// the libraries listed as their own dependencies here; never the root
// package, never internal/.
//
// xmltext, the XML escaper of markup, delta and xmlpatch, imports only the
// standard library; the libraries that import markup or delta list it
// because the rule is checked on all their dependencies.
var libraries = map[string][]string{
	"tree":        {},
	"xmltext":     {},
	"markup":      {"tree", "xmltext"},
	"delta":       {"tree", "xmltext"},
	"treediff":    {"tree", "delta", "editdist", "xmltext"},
	"render":      {"tree", "delta", "markup", "xmltext"},
	"spec":        {},
	"intent":      {"tree", "delta", "treediff", "markup", "spec", "xmltext"},
	"opic":        {},
	"webtable":    {},
	"simulate":    {"tree", "delta", "xmltext"},
	"editdist":    {"tree", "delta", "xmltext"},
	"quality":     {"tree", "delta", "treediff", "simulate", "editdist", "markup", "xmltext"},
	"xmlpatch":    {"tree", "delta", "xmltext"},
	"pdfdigest":   {},
	"imagedigest": {},
}

// allowedLibraryDeps are the non-standard packages a library may use.
var allowedLibraryDeps = []string{"golang.org/x/net/", "golang.org/x/text/"}

// services hold policy under internal/ and reach the outside world only
// through the root package's interfaces.
var services = []string{"warehouse", "schedule", "monitor", "crawl"}

type listedPackage struct {
	ImportPath string
	Deps       []string
	Imports    []string
	Standard   bool
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// isStandard reports whether an import path belongs to the standard library
// (no dot in its first element).
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// ownPackage returns the path of p relative to the module, "" for the root,
// and false for a package outside the module.
func ownPackage(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

// libraryOf returns the library a package belongs to (tree for tree/xid).
func libraryOf(rel string) (string, bool) {
	first, _, _ := strings.Cut(rel, "/")
	_, ok := libraries[first]
	return first, ok
}

func TestImportRules(t *testing.T) {
	if testing.Short() {
		t.Skip("import rules need 'go list'; skipped in -short mode")
	}
	for _, p := range listPackages(t) {
		rel, _ := ownPackage(p.ImportPath)
		switch {
		case rel == "":
			for _, d := range p.Deps {
				if !isStandard(d) {
					t.Errorf("root package vigil imports %s: the domain uses the standard library only", d)
				}
			}
		case strings.HasPrefix(rel, "cmd/"):
			// cmd/vigil is where everything meets.
		case strings.HasPrefix(rel, "internal/"):
			checkInternal(t, rel, p)
		default:
			lib, ok := libraryOf(rel)
			if !ok {
				t.Errorf("package %s is not in the layer table of deps_test.go", rel)
				continue
			}
			checkLibrary(t, rel, lib, p)
		}
	}
}

func checkLibrary(t *testing.T, rel, lib string, p listedPackage) {
	allowed := map[string]bool{lib: true}
	for _, l := range libraries[lib] {
		allowed[l] = true
	}
	for _, d := range p.Deps {
		if isStandard(d) {
			continue
		}
		if dr, own := ownPackage(d); own {
			dl, isLib := libraryOf(dr)
			if !isLib || !allowed[dl] {
				t.Errorf("library %s imports %s: allowed are %v", rel, d, libraries[lib])
			}
			continue
		}
		ok := false
		for _, prefix := range allowedLibraryDeps {
			ok = ok || strings.HasPrefix(d, prefix)
		}
		if !ok {
			t.Errorf("library %s depends on %s: libraries may use only the standard library and %v", rel, d, allowedLibraryDeps)
		}
	}
}

func checkInternal(t *testing.T, rel string, p listedPackage) {
	name := strings.TrimPrefix(rel, "internal/")
	first, _, _ := strings.Cut(name, "/")
	isService := false
	for _, s := range services {
		isService = isService || first == s
	}
	for _, imp := range p.Imports {
		ir, own := ownPackage(imp)
		if !own {
			if isService && !isStandard(imp) {
				t.Errorf("service %s imports %s: services reach the outside only through vigil interfaces", rel, imp)
			}
			continue
		}
		if !strings.HasPrefix(ir, "internal/") {
			continue // the root package or a library
		}
		other := strings.TrimPrefix(ir, "internal/")
		otherFirst, _, _ := strings.Cut(other, "/")
		switch {
		case otherFirst == first:
			// inside one package tree (notify/email importing notify)
		case otherFirst == "mock" || otherFirst == "storetest":
			// go list without -test shows only non-test imports.
			t.Errorf("%s imports %s from non-test code: mocks and the store conformance suite are for tests only", rel, ir)
		case isService:
			isOtherService := false
			for _, s := range services {
				isOtherService = isOtherService || otherFirst == s
			}
			if !isOtherService {
				t.Errorf("service %s imports adapter %s: services see adapters only through vigil interfaces", rel, ir)
			}
		default:
			t.Errorf("adapter %s imports %s: adapters never import each other or a service", rel, ir)
		}
	}
}
