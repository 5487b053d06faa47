package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/net/html"

	"github.com/vigil-web/vigil/opic"
)

// The site part of vigil bench opic: a site's releases read from a corpus
// directory as link graphs, OPIC run over them and their changes, and the
// importance of the site's sections.

// opicSite is one release of a site: its pages by path and its link graph.
type opicSite struct {
	paths    []string // page id -> path relative to the release
	ids      map[string]opic.PageID
	graph    *opic.Graph
	links    int // <a href> links to other pages of the site (not to itself, a fragment or a stylesheet)
	dangling int // internal links to a page that does not exist
	external int
}

// opicReadSite parses every .html page under dir and builds its link
// graph from the <a href> links to pages of the same release.
func opicReadSite(dir string) (*opicSite, error) {
	s := &opicSite{ids: map[string]opic.PageID{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".html") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			s.paths = append(s.paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.paths) == 0 {
		return nil, fmt.Errorf("%s: no .html pages", dir)
	}
	slices.Sort(s.paths)
	for i, p := range s.paths {
		s.ids[p] = opic.PageID(i)
	}
	var edges []opic.Edge
	for i, p := range s.paths {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		hrefs, err := opicHrefs(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, h := range hrefs {
			target, internal := opicResolve(p, h)
			switch {
			case !internal:
				s.external++
			case target == "":
				// a fragment or a non-page resource of the site
			default:
				s.links++
				if j, ok := s.ids[target]; ok {
					edges = append(edges, opic.Edge{From: opic.PageID(i), To: j})
				} else {
					s.dangling++
				}
			}
		}
	}
	s.graph, err = opic.NewGraph(len(s.paths), edges)
	return s, err
}

// opicHrefs returns the href attributes of the <a> elements of an HTML
// document.
func opicHrefs(r io.Reader) ([]string, error) {
	z := html.NewTokenizer(r)
	var out []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return out, nil
			}
			return out, z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			name, attr := z.TagName()
			if string(name) != "a" || !attr {
				continue
			}
			for {
				k, v, more := z.TagAttr()
				if string(k) == "href" {
					out = append(out, string(v))
				}
				if !more {
					break
				}
			}
		}
	}
}

// opicResolve resolves href on the page at path from (relative to the site
// root). It returns the target page's path and true for a link inside the
// site (target "" when it is not a page: a fragment of the same page, a
// stylesheet), and false for a link elsewhere. A relative link that climbs
// above the root is kept as a link to a missing page.
func opicResolve(from, href string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return "", false
	}
	if u.Scheme != "" || u.Host != "" {
		return "", false
	}
	if u.Path == "" {
		return "", true
	}
	var p string
	if strings.HasPrefix(u.Path, "/") {
		p = path.Clean(u.Path[1:])
	} else {
		p = path.Join(path.Dir(from), u.Path)
	}
	if !strings.HasSuffix(p, ".html") {
		return "", true
	}
	if p == from {
		return "", true
	}
	return p, true
}

// opicRemap serves the new release of a site to an OPIC state that knows
// the pages of the old one: it maps the new release's page ids to OPIC ids,
// adding a page when it is first linked (or read), as a crawler does.
type opicRemap struct {
	newSite *opicSite
	oldIDs  map[string]opic.PageID
	toOPIC  []opic.PageID // new id -> OPIC id (noID until known)
	fromOP  []int         // OPIC id -> new id (-1 for pages gone)
	o       *opic.OPIC
	buf     []opic.PageID
}

const opicNoID = ^opic.PageID(0)

func newOpicRemap(old, cur *opicSite) *opicRemap {
	return &opicRemap{newSite: cur, oldIDs: old.ids}
}

// bind starts serving o, a state over the old release's pages: old pages
// gone from the new release are deleted.
func (r *opicRemap) bind(o *opic.OPIC) opic.LinkGraph {
	r.o = o
	r.toOPIC = make([]opic.PageID, len(r.newSite.paths))
	r.fromOP = make([]int, o.Len())
	for i := range r.fromOP {
		r.fromOP[i] = -1
	}
	for j, p := range r.newSite.paths {
		r.toOPIC[j] = opicNoID
		if id, ok := r.oldIDs[p]; ok {
			r.toOPIC[j] = id
			r.fromOP[id] = j
		}
	}
	for id, j := range r.fromOP {
		if j < 0 && !o.Deleted(opic.PageID(id)) {
			o.Delete(opic.PageID(id))
		}
	}
	return (*opicRemapGraph)(r)
}

// opicRemapGraph is the new release seen in OPIC ids.
type opicRemapGraph opicRemap

func (g *opicRemapGraph) Len() int { return g.o.Len() }

func (g *opicRemapGraph) Links(p opic.PageID) []opic.PageID {
	r := (*opicRemap)(g)
	j := r.fromOP[p]
	r.buf = r.buf[:0]
	if j < 0 {
		return nil
	}
	for _, q := range r.newSite.graph.Links(opic.PageID(j)) {
		if r.toOPIC[q] == opicNoID {
			r.toOPIC[q] = r.o.AddPage() // first linked: a new entry
			r.fromOP = append(r.fromOP, int(q))
		}
		r.buf = append(r.buf, r.toOPIC[q])
	}
	return r.buf
}

// project returns an estimate over OPIC ids as a vector over the new
// release's pages, normalised (pages not yet discovered get 0).
func (r *opicRemap) project(est []float64) []float64 {
	out := make([]float64, len(r.newSite.paths))
	sum := 0.0
	for j, id := range r.toOPIC {
		if id != opicNoID && int(id) < len(est) {
			out[j] = est[id]
			sum += out[j]
		}
	}
	for j := range out {
		if sum > 0 {
			out[j] /= sum
		}
	}
	return out
}

// siteBench evaluates OPIC on the real link graph of a site's two
// releases, its site importance and its refresh order.
func (b *opicBench) siteBench(ctx context.Context) error {
	releases, err := opicReleases(b.site)
	if err != nil {
		return err
	}
	sites := make([]*opicSite, len(releases))
	for i, rel := range releases {
		if sites[i], err = opicReadSite(filepath.Join(b.site, rel)); err != nil {
			return err
		}
	}
	name := filepath.Base(filepath.Clean(b.site))
	for i, s := range sites {
		b.printf("\n== site %s %s: %d pages, %d distinct links (of %d <a href> to other pages of the site, %d to missing pages; %d external), %d dangling pages\n",
			name, releases[i], s.graph.Len(), s.graph.Edges(), s.links, s.dangling, s.external, s.graph.Dangling())
	}
	first := sites[0]
	b.printf("\n== OPIC on site %s %s\n", name, releases[0])
	if _, _, err := b.policies(name+" "+releases[0], first.graph, map[string]*opicSpeed{}); err != nil {
		return err
	}
	ref, _, _ := opic.PageRank(first.graph, b.alpha, opicPageRankTol, 1000)
	o, _ := opic.New(first.graph.Len(), opic.Config{Alpha: b.alpha})
	var sp opicSpeed
	opicSimulate(o, opic.NewGreedy(o), first.graph, 10*first.graph.Len(), &sp)
	est := o.Importances(nil, opic.EstimatePropagated)
	b.printf("top pages of %s (PageRank, greedy OPIC (H+C-C0)/Z after 10 reads/page):\n", releases[0])
	for _, p := range opic.TopPages(ref, 6.0/float64(len(ref))) {
		b.printf("  %-24s %.4f  %.4f\n", first.paths[p], ref[p], est[p])
	}
	if len(sites) >= 2 {
		if err := ctx.Err(); err != nil {
			return err
		}
		old, cur := sites[len(sites)-2], sites[len(sites)-1]
		b.printf("\n== changing site graph: %s %s -> %s (new pages get an entry when first linked)\n",
			name, releases[len(sites)-2], releases[len(sites)-1])
		if err := b.adaptiveSite(ctx, old, cur); err != nil {
			return err
		}
		b.siteImportance(cur, b.site, releases[len(sites)-2], releases[len(sites)-1])
	}
	return nil
}

// adaptiveSite is adaptive for a site's two releases, whose page ids
// differ.
func (b *opicBench) adaptiveSite(ctx context.Context, old, cur *opicSite) error {
	remap := newOpicRemap(old, cur)
	return b.adaptive(ctx, old.graph, cur.graph, remap)
}

// siteImportance groups the pages of a site release into sections (the
// top folder: the manual pages at the root, howto/, technical/) and prints
// their importance by the seed's definition and its approximations, and
// the BnF refresh order from the pages that changed between releases.
func (b *opicBench) siteImportance(cur *opicSite, site, oldRel, curRel string) {
	oldDir, curDir := filepath.Join(site, oldRel), filepath.Join(site, curRel)
	secID := map[string]uint32{}
	var secNames []string
	siteOf := make([]uint32, len(cur.paths))
	for i, p := range cur.paths {
		sec := "(root)"
		if d, _, ok := strings.Cut(p, "/"); ok {
			sec = d + "/"
		}
		id, ok := secID[sec]
		if !ok {
			id = uint32(len(secNames))
			secID[sec] = id
			secNames = append(secNames, sec)
		}
		siteOf[i] = id
	}
	ref, _, _ := opic.PageRank(cur.graph, b.alpha, opicPageRankTol, 1000)
	sum := opic.SiteImportance(ref, siteOf)
	b.printf("\nsite importance of the sections of the new release: the sum of page PageRanks (the seed's definition), and the\n")
	b.printf("PageRank of the site graph for each weighting of App. B, damping %.2f, the virtual site paying sites by size:\n", 1-b.alpha)
	tw := tabwriter.NewWriter(b.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "section\tpages\tsum\tby importance\tuniform pages\t1/out(Y)\tinternal rank\t\n")
	size := make([]int, len(secNames))
	sizes := make([]float64, len(secNames))
	for _, s := range siteOf {
		size[s]++
		sizes[s]++
	}
	cols := [][]float64{sum}
	for _, w := range []opic.SiteWeighting{opic.SiteByImportance, opic.SiteByUniform, opic.SiteByOutDegree, opic.SiteByInternalRank} {
		sg, err := opic.NewSiteGraph(cur.graph, siteOf, w, ref)
		if err != nil {
			b.printf("site graph: %v\n", err)
			return
		}
		r, _ := sg.Rank(b.alpha, sizes, 1e-12, 1000)
		cols = append(cols, r)
	}
	for s, nm := range secNames {
		fmt.Fprintf(tw, "%s\t%d\t", nm, size[s])
		for _, c := range cols {
			fmt.Fprintf(tw, "%.4f\t", c[s])
		}
		fmt.Fprintf(tw, "\n")
	}
	tw.Flush()
	// Refresh order: a page changed if its bytes differ between releases.
	t0 := opicReleaseTime(site, oldRel)
	t1 := opicReleaseTime(site, curRel)
	interval := t1.Sub(t0)
	if interval <= 0 {
		interval = 24 * time.Hour
	}
	perYear := 365 * 24 * time.Hour.Hours() / interval.Hours()
	pages := make([][]opic.PageChange, len(secNames))
	changedPages := 0
	for i, p := range cur.paths {
		a, errA := os.ReadFile(filepath.Join(oldDir, filepath.FromSlash(p)))
		c, errC := os.ReadFile(filepath.Join(curDir, filepath.FromSlash(p)))
		ch := 0.0
		if errA != nil || errC != nil || !bytes.Equal(a, c) {
			ch = perYear
			changedPages++
		}
		pages[siteOf[i]] = append(pages[siteOf[i]], opic.PageChange{Importance: ref[i], ChangeRate: ch})
	}
	states := make([]opic.SiteState, len(secNames))
	for s := range secNames {
		mean, _ := opic.SiteChangeRate(pages[s])
		states[s] = opic.SiteState{Importance: sum[s], ChangeRate: mean, LastVisit: t0, Pages: size[s]}
	}
	b.printf("refresh order (rho = importance x days since last visit x weighted change rate / pages; %d of %d pages changed in %.0f days):\n",
		changedPages, len(cur.paths), interval.Hours()/24)
	for _, s := range opic.RefreshOrder(states, t1) {
		b.printf("  %-12s rho %.5f (i %.4f, ch %.2f/year, %d pages)\n", secNames[s], opic.Rho(states[s], t1),
			states[s].Importance, states[s].ChangeRate, states[s].Pages)
	}
}

// opicReleaseTime returns the date of a release: the first YYYY-MM-DD date
// on a line of the site's README.md that names the release folder (the
// corpus records commit dates there), else the newest modification time of
// its files.
func opicReleaseTime(site, release string) time.Time {
	if readme, err := os.ReadFile(filepath.Join(site, "README.md")); err == nil {
		for _, line := range strings.Split(string(readme), "\n") {
			if !strings.Contains(line, "`"+release+"/`") {
				continue
			}
			if m := opicDate.FindString(line); m != "" {
				if t, err := time.Parse(time.DateOnly, m); err == nil {
					return t
				}
			}
		}
	}
	var newest time.Time
	filepath.WalkDir(filepath.Join(site, release), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil && info.ModTime().After(newest) {
				newest = info.ModTime()
			}
		}
		return nil
	})
	return newest
}

var opicDate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)

// opicCompareVersions orders release names like v2.30.0 < v2.31.0 <
// v2.100.0, numerically field by field.
func opicCompareVersions(a, b string) int {
	fa := strings.FieldsFunc(strings.TrimPrefix(a, "v"), func(r rune) bool { return r == '.' || r == '-' })
	fb := strings.FieldsFunc(strings.TrimPrefix(b, "v"), func(r rune) bool { return r == '.' || r == '-' })
	for i := 0; i < len(fa) && i < len(fb); i++ {
		na, errA := strconv.Atoi(fa[i])
		nb, errB := strconv.Atoi(fb[i])
		if errA == nil && errB == nil {
			if na != nb {
				return na - nb
			}
			continue
		}
		if c := strings.Compare(fa[i], fb[i]); c != 0 {
			return c
		}
	}
	return len(fa) - len(fb)
}

// opicReleases returns the release folders of site, the folder --site
// names, oldest first, or an error naming --site when it has none or
// cannot be read.
func opicReleases(site string) ([]string, error) {
	entries, err := os.ReadDir(site)
	if err != nil {
		return nil, fmt.Errorf("--site: %w", err)
	}
	var releases []string
	for _, e := range entries {
		if e.IsDir() {
			releases = append(releases, e.Name())
		}
	}
	if len(releases) < 1 {
		return nil, fmt.Errorf("--site %s: no release folders", site)
	}
	slices.SortFunc(releases, opicCompareVersions)
	return releases, nil
}
