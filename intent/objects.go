package intent

import (
	"cmp"
	"crypto/sha256"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// walkElements visits the content elements of c in document order;
// returning false skips an element's children.
func (c *content) walkElements(visit func(n *tree.Node) bool) {
	for _, r := range c.roots {
		tree.Walk(r, func(n *tree.Node) bool {
			if n.Kind != tree.Element || (n != r && c.skip(n)) {
				return false
			}
			return visit(n)
		})
	}
}

// elementIs reports whether n is an element with one of the names (lower
// case), ignoring case and a namespace prefix.
func elementIs(n *tree.Node, names ...string) bool {
	if n.Kind != tree.Element {
		return false
	}
	for _, s := range names {
		if n.Name == s {
			return true
		}
	}
	name := n.Name
	if isLowerASCII(name) {
		return false // no other spelling can match
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	for _, s := range names {
		if strings.EqualFold(name, s) {
			return true
		}
	}
	return false
}

func attrFold(n *tree.Node, name string) (string, bool) {
	for _, a := range n.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}

// isLowerASCII reports whether s has only lower-case ASCII letters and
// digits.
func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// subtreeText returns the normalised text of n's subtree without its
// non-content and ignored parts, nor the subtrees stop selects.
func (c *content) subtreeText(n *tree.Node, stop func(*tree.Node) bool) string {
	if len(n.Children) == 1 && n.Children[0].Kind == tree.Text {
		return normalizeSpace(n.Children[0].Value)
	}
	var b strings.Builder
	// run is the parent of the last text written while only transparent
	// siblings have followed it: the next text there continues it.
	var run *tree.Node
	tree.Walk(n, func(m *tree.Node) bool {
		if m != n && m.Parent == run && c.transparent(m) {
			return false
		}
		cont := m.Parent == run && run != nil
		run = nil
		switch m.Kind {
		case tree.Text:
			if !cont {
				b.WriteByte(' ')
			}
			b.WriteString(m.Value)
			run = m.Parent
			return false
		case tree.Element:
			if m != n && (c.skip(m) || (stop != nil && stop(m))) {
				return false
			}
			return true
		}
		return false
	})
	return normalizeSpace(b.String())
}

// linkObjects returns the links of c: a and area elements with an href,
// or in a feed its feed links (FeedLinks), each labelled by the title of
// its item or else by its target, or in a page read as its source text
// the URLs written in its text (addTextLinks).
func (c *content) linkObjects() []object {
	c.collectObjects()
	return c.links
}

// collectObjects finds the links, images, tables and lists of c in one
// walk.
func (c *content) collectObjects() {
	if c.linksDone {
		return
	}
	c.linksDone = true
	if c.asText {
		c.addTextLinks()
	}
	// A feed's links are its feed links (FeedLinks), at the elements
	// that hold them, in the content's scope; its a elements (in an Atom
	// entry's XHTML content) are not.
	var feed map[*tree.Node][]FeedLink
	isFeed := !c.asText && IsFeed(c.doc)
	if isFeed {
		feed = map[*tree.Node][]FeedLink{}
		for _, l := range FeedLinks(c.doc, c.base) {
			feed[l.Node] = append(feed[l.Node], l)
		}
	}
	c.walkElements(func(n *tree.Node) bool {
		for _, l := range feed[n] {
			href := c.resolve(l.URL)
			c.appendLink(n, href, cmp.Or(l.Text, href))
		}
		switch {
		case elementIs(n, "a", "area") && !c.asText && !isFeed:
			c.addLink(n)
		case elementIs(n, "img"):
			c.addImage(n)
		case elementIs(n, "table"):
			c.addTable(n)
		case isList(n):
			c.addList(n)
		}
		return true
	})
	c.listOwners, c.absorbed = nil, nil
}

func (c *content) addLink(n *tree.Node) {
	href, ok := attrFold(n, "href")
	if !ok {
		return
	}
	href = c.resolve(strings.TrimSpace(href))
	text := c.subtreeText(n, nil)
	if text == "" {
		tree.Walk(n, func(m *tree.Node) bool {
			if text == "" && elementIs(m, "img") {
				text, _ = attrFold(m, "alt")
				text = normalizeSpace(text)
			}
			return text == ""
		})
	}
	if text == "" {
		if t, ok := attrFold(n, "title"); ok {
			text = normalizeSpace(t)
		}
	}
	c.appendLink(n, href, text)
}

// appendLink adds to c's links the one at node n to href, named text.
// The link's target is the same whatever its URL's signing parameters
// (unsignedURL: a signed download link is new at every fetch); its
// record names the URL as written.
func (c *content) appendLink(n *tree.Node, href, text string) {
	ref := unsignedURL(href)
	c.links = append(c.links, object{
		key: ref + "\x00" + text, keys: []string{ref, text},
		node: n, pos: len(c.links) + 1, href: href, ref: ref, text: text,
	})
}

// imageObjects returns the images of c: img elements with a source (see
// imageSource).
func (c *content) imageObjects() []object {
	c.collectObjects()
	return c.images
}

func (c *content) addImage(n *tree.Node) {
	sources := pictureSources(n)
	src, ok := imageSource(n)
	if len(sources) > 0 {
		// The picture's image is its first source's; it shows its
		// other sources' and its img's own on other screens and
		// browsers, which are its image too.
		if ok {
			sources = append(sources, src)
		}
		src, ok = sources[0], true
	}
	if !ok {
		return
	}
	src = c.resolve(src)
	alt, _ := attrFold(n, "alt")
	alt = normalizeSpace(alt)
	// The image is the same whatever its URL's signing parameters
	// (unsignedURL); its record names the URL as written.
	same := unsignedURL(src)
	key := same
	for i, s := range sources {
		sources[i] = c.resolve(s)
		if i > 0 {
			key += "\x01" + unsignedURL(sources[i])
		}
	}
	c.images = append(c.images, object{
		key: key + "\x00" + alt, keys: []string{alt, same},
		node: n, pos: len(c.images) + 1, src: src, alt: alt, srcs: sources,
	})
}

// lazySources are the attributes in which pages that load images lazily
// keep the image, while src holds a placeholder until a script swaps them.
var lazySources = []string{"data-src", "data-lazy-src", "data-original"}

// imageSource returns the address of the image an img element shows: the
// one a lazy-loading attribute holds (lazySources), else src unless it is
// an inline placeholder (a data: URL) that srcset replaces, else the first
// candidate of srcset (or data-srcset), else an inline src. It reports
// false for an img with none of them.
func imageSource(n *tree.Node) (string, bool) {
	for _, name := range lazySources {
		if v, ok := attrFold(n, name); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), true
		}
	}
	src, hasSrc := attrFold(n, "src")
	src = strings.TrimSpace(src)
	if hasSrc && src != "" && !hasPrefixFold(src, "data:") {
		return src, true
	}
	for _, name := range []string{"srcset", "data-srcset"} {
		if v, ok := attrFold(n, name); ok {
			if first := firstCandidate(v); first != "" {
				return first, true
			}
		}
	}
	return src, hasSrc
}

// pictureSources returns the addresses of the images of img element n
// in a picture: the first candidate of the srcset (or data-srcset, for a
// picture loaded lazily) of each of the picture's source elements before
// n that has one, in order. A browser that supports picture shows the
// first source whose media and type it takes: the first is the image
// Vigil shows (a wide screen's, where sources are written widest first,
// as they are), the others those of other screens and formats, as the
// first candidate of an img's srcset is its image without a src; the
// img's own source is the fallback of browsers without picture. It
// returns nil for an img not in a picture or in one without such a
// source.
func pictureSources(n *tree.Node) []string {
	pic := n.Parent
	if pic == nil || !elementIs(pic, "picture") {
		return nil
	}
	var out []string
	for _, m := range pic.Children {
		if m == n {
			break
		}
		if !elementIs(m, "source") {
			continue
		}
		for _, name := range []string{"srcset", "data-srcset"} {
			if v, ok := attrFold(m, name); ok {
				if first := firstCandidate(v); first != "" {
					out = append(out, first)
					break
				}
			}
		}
	}
	return out
}

// firstCandidate returns the address of the first image candidate of a
// srcset attribute ("a.jpg 1x, b.jpg 2x" gives a.jpg).
func firstCandidate(srcset string) string {
	f := strings.Fields(srcset)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ",")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// container is a table or a list.
type container struct {
	node       *tree.Node
	id         string
	index      int        // 1-based among the containers of its kind
	headers    []string   // tables: each column's header, the lowest header cell over it
	headerKeys []string   // tables: each column's header cells, top to bottom, as headerKey digests them (columnPairs)
	items      []object   // rows or items
	parent     *container // lists: the list it is nested in, within the content
}

// name returns the container's id, or "#n".
func (k *container) name() string {
	if k.id != "" {
		return k.id
	}
	return "#" + strconv.Itoa(k.index)
}

// tableObjects returns the tables of c with their rows.
func (c *content) tableObjects() []*container {
	c.collectObjects()
	return c.tables
}

func (c *content) addTable(n *tree.Node) {
	t := &container{node: n, index: len(c.tables) + 1}
	t.id, _ = attrFold(n, "id")
	var rows [][]string
	var rowCols, rowSpans [][]int // each row's cells' first columns and colspans
	var rowNodes []*tree.Node
	var theadOpen bool // a thead's row has been seen
	var head []bool    // whether each row of rows is a header row
	// owner holds, for each column, the cell that took it last (a row
	// of rows, its cell there, and its colspan), the row -1 for a cell
	// the monitor ignores; names holds each row's name (rowName).
	var owner []slotOwner
	var names []string
	var g slotGrid
	tree.Walk(n, func(m *tree.Node) bool {
		if m.Kind != tree.Element || (m != n && (c.skip(m) || elementIs(m, "table"))) {
			if m.Kind == tree.Element && elementIs(m, "tr") && c.skip(m) {
				// A row the monitor ignores keeps its place in the
				// grid, as an ignored cell keeps its slots: a rowspan
				// above counts it, and its own cells' rowspans still
				// shift the rows below.
				g.row(m.Parent)
				for _, cell := range m.Children {
					if elementIs(cell, "td", "th") {
						span := colspan(cell)
						col := g.place(span, rowspan(cell))
						for len(owner) < col+span {
							owner = append(owner, slotOwner{row: -1})
						}
						owner[col] = slotOwner{row: -1, span: span}
					}
				}
			}
			return false
		}
		if !elementIs(m, "tr") {
			return true
		}
		g.row(m.Parent)
		var cells []string
		var cols, spans []int
		allTH := true
		for _, cell := range m.Children {
			if !elementIs(cell, "td", "th") {
				continue
			}
			// A cell the monitor ignores keeps its slots, so that the
			// cells after it stay under their own columns' headers,
			// but is no cell of the row: its text is no change and is
			// shown nowhere.
			span := colspan(cell)
			col := g.place(span, rowspan(cell))
			for len(owner) < col+span {
				owner = append(owner, slotOwner{row: -1})
			}
			if c.skip(cell) {
				owner[col] = slotOwner{row: -1, span: span}
				continue
			}
			owner[col] = slotOwner{row: len(rows), cell: len(cells), span: span}
			cells = append(cells, c.subtreeText(cell, nil))
			cols = append(cols, col)
			spans = append(spans, span)
			allTH = allTH && elementIs(cell, "th")
		}
		if len(cells) == 0 {
			return false
		}
		// Every row of a thead is a header row (a group's cells over
		// the columns they span, then the row that names each column).
		// Without a thead, a first row all of th is the header row.
		isHead := false
		if m.Parent != nil && elementIs(m.Parent, "thead") {
			theadOpen, isHead = true, true
		} else if len(rows) == 0 && allTH && !theadOpen {
			isHead = true
		}
		rows = append(rows, cells)
		head = append(head, isHead)
		rowCols = append(rowCols, cols)
		rowSpans = append(rowSpans, spans)
		rowNodes = append(rowNodes, m)
		names = append(names, rowName(rows, head, owner, cols[0]))
		return false
	})
	// A column's header is the lowest header cell over it (one of the
	// last header row, or one above whose rowspan reaches down past it);
	// its key, which pairs the columns of two versions, is every header
	// cell over it, top to bottom (headerKey).
	for i := range rows {
		if !head[i] {
			continue
		}
		for k, cell := range rows[i] {
			digest := sha256.Sum256([]byte(cell))
			var above, key string // the last column's key before this cell, and after
			for col := rowCols[i][k]; col < rowCols[i][k]+rowSpans[i][k]; col++ {
				for len(t.headers) <= col {
					t.headers = append(t.headers, "")
					t.headerKeys = append(t.headerKeys, "")
				}
				t.headers[col] = cell
				if col == rowCols[i][k] || t.headerKeys[col] != above {
					above, key = t.headerKeys[col], headerKey(t.headerKeys[col], digest)
				}
				t.headerKeys[col] = key
			}
		}
	}
	for i, cells := range rows {
		t.items = append(t.items, object{
			key: strings.Join(cells, "\x1f"), keys: []string{cells[0]}, rowName: names[i],
			node: rowNodes[i], pos: i + 1, cells: cells, cols: rowCols[i], spans: rowSpans[i],
			text: strings.Join(cells, " | "), head: head[i],
		})
	}
	c.tables = append(c.tables, t)
}

// slotOwner is the cell that took a column of a table's grid last: its
// row (an index of addTable's rows, -1 for a cell the monitor ignores),
// its index among that row's cells, and its colspan.
type slotOwner struct{ row, cell, span int }

// maxRowHeaders is the number of body cells above a row, their rowspans
// over its first columns, that name it at most (rowName); maxOwners the
// number of cells before its first column looked at.
const (
	maxRowHeaders = 4
	maxOwners     = 16
)

// rowName returns the name of the table row just read (TableInfo.Row),
// whose first cell shown stands in column first: that cell's text, after
// those of the body cells above whose rowspans cover the columns before
// it, left to right, the row headers a reader sees beside it ("Berlin /
// Tea" for the tea sold in Berlin, "Berlin / Kreuzberg / Tea" under a
// shop's cell too). A header row's cell there is a column's header, and
// a cell the monitor ignores names nothing. The columns before first are
// all taken (a row's cells take the first free ones), from above or by
// the row's ignored cells; they are walked cell by cell, a few at most.
func rowName(rows [][]string, head []bool, owner []slotOwner, first int) string {
	var parts []string
	for col, seen := 0, 0; col < first && seen < maxOwners && len(parts) < maxRowHeaders; seen++ {
		o := owner[col]
		if o.row >= 0 && o.row < len(rows) && !head[o.row] {
			parts = append(parts, rows[o.row][o.cell])
		}
		col += max(o.span, 1)
	}
	own := rows[len(rows)-1][0]
	if len(parts) == 0 {
		return own
	}
	return strings.Join(append(parts, own), " / ")
}

// headerKey returns the key of a column whose header cells above one of
// text digest (its SHA-256) have the key above ("" for none): a digest of
// the cells' texts top to bottom, of one length however long they are, so
// that a long header over many columns, over cells of its own each, is
// not copied into each column's key.
func headerKey(above string, digest [sha256.Size]byte) string {
	h := sha256.New()
	h.Write([]byte(above))
	h.Write(digest[:])
	return string(h.Sum(nil)[:16])
}

// maxColspan and maxRowspan are the most columns and rows a cell spans,
// as HTML caps colspan and rowspan.
const (
	maxColspan = 1000
	maxRowspan = 65534
)

// colspan returns the number of columns table cell n spans, its colspan
// read as HTML reads it: the digits it starts with after white space and
// an optional +, 1 when there are none or they make 0, at most
// maxColspan.
func colspan(n *tree.Node) int {
	span, ok := spanAttr(n, "colspan", maxColspan)
	if !ok || span == 0 {
		return 1
	}
	return span
}

// rowspan returns the number of rows table cell n spans, its rowspan read
// as HTML reads it: the digits it starts with after white space and an
// optional +, 1 when there are none, at most maxRowspan; 0 is every row
// to the end of its row group (slotGrid.place).
func rowspan(n *tree.Node) int {
	span, ok := spanAttr(n, "rowspan", maxRowspan)
	if !ok {
		return 1
	}
	return span
}

// spanAttr reads attribute name of n as HTML reads a non-negative
// integer: the digits it starts with after white space and an optional +,
// capped at most; false when it is absent or has no digits.
func spanAttr(n *tree.Node, name string, most int) (int, bool) {
	v, ok := attrFold(n, name)
	if !ok {
		return 0, false
	}
	v = strings.TrimLeft(v, " \t\n\f\r")
	v = strings.TrimPrefix(v, "+")
	span, digits := 0, false
	for i := 0; i < len(v) && '0' <= v[i] && v[i] <= '9'; i++ {
		span, digits = min(span*10+int(v[i]-'0'), most), true
	}
	return span, digits
}

// slotGrid places a table's cells in its slots as HTML's table model
// does ("forming a table"): a row's cell takes the first column from the
// left not taken in that row, by a cell of the row or by one above whose
// rowspan reaches it, and takes colspan columns of rowspan rows, rowspan
// 0 to the end of the row group. It keeps, for each column, the row the
// cells placed so far leave it free from, not the slots themselves, so
// that a cell of a huge span costs no more than one of colspan columns,
// and over them a tree of their least (a segment tree), so that a cell
// finds its column past those taken in O(log columns), not one by one: a
// row of many cells, or rows under many columns that a rowspan above
// takes, would cost the columns each.
type slotGrid struct {
	group   *tree.Node // the rows' parent: a thead, tbody or tfoot, or the table
	started bool       // a row has been placed
	y       int        // the current row in its group
	x       int        // the column the row's next cell is looked for from
	freeY   []int      // for each column, the first row of the group free in it
	// least is the segment tree over freeY: least[1] the least of all,
	// least[i] that of least[2i] and least[2i+1], least[size+col] the
	// column col's (0, free, past freeY); size, a power of 2, its leaves.
	least []int
	size  int
}

// row starts a row of row group group: a group other than the last row's
// starts the grid over, as a row group ends every rowspan in it.
func (g *slotGrid) row(group *tree.Node) {
	g.x = 0
	if !g.started || g.group != group {
		// The tree is dropped, not cleared: each group pays for its
		// own columns only.
		g.group, g.started, g.y, g.freeY, g.least, g.size = group, true, 0, g.freeY[:0], nil, 0
		return
	}
	g.y++
}

// taken reports whether column col of the current row is taken by a cell
// of a row above whose rowspan reaches it.
func (g *slotGrid) taken(col int) bool {
	return col < len(g.freeY) && g.freeY[col] > g.y
}

// place places a cell of colspan columns and rowspan rows in the current
// row and returns its first column.
func (g *slotGrid) place(colspan, rowspan int) int {
	x := g.firstFree(1, 0, g.size, g.x)
	if x < 0 {
		x = len(g.freeY)
	}
	until := g.y + rowspan
	if rowspan == 0 {
		until = math.MaxInt // to the end of the group
	}
	for col := x; col < x+colspan; col++ {
		if col == len(g.freeY) {
			g.freeY = append(g.freeY, 0)
		}
		g.set(col, max(g.freeY[col], until))
	}
	g.x = x + colspan
	return x
}

// firstFree returns the first column from x, under node i of the tree
// (over columns lo to hi), free in the current row, or -1 if none is.
func (g *slotGrid) firstFree(i, lo, hi, x int) int {
	if hi <= x || g.least[i] > g.y {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if c := g.firstFree(2*i, lo, mid, x); c >= 0 {
		return c
	}
	return g.firstFree(2*i+1, mid, hi, x)
}

// set sets column col's first free row to v, the tree with it, growing
// the tree to hold col.
func (g *slotGrid) set(col, v int) {
	g.freeY[col] = v
	if col >= g.size {
		g.size = max(2*g.size, 16)
		for g.size <= col {
			g.size *= 2
		}
		g.least = make([]int, 2*g.size)
		for c, f := range g.freeY {
			g.least[g.size+c] = f
		}
		for i := g.size - 1; i > 0; i-- {
			g.least[i] = min(g.least[2*i], g.least[2*i+1])
		}
		return
	}
	i := g.size + col
	g.least[i] = v
	for i /= 2; i > 0; i /= 2 {
		g.least[i] = min(g.least[2*i], g.least[2*i+1])
	}
}

// cellAt returns the index of table row o's cell over column col, -1
// for a column none of its cells is over (one taken by a cell above whose
// rowspan reaches the row, or left empty): a cell is over the colspan
// columns from its first, and a row's cells come in the order of their
// columns. It looks, rather than a row's columns being listed, so that a
// row's cost is its cells, not the columns before them, which a rowspan
// above may make a million.
func (o *object) cellAt(col int) int {
	k := sort.Search(len(o.cells), func(k int) bool { return o.cellCol(k)+o.cellSpan(k) > col })
	if k < len(o.cells) && o.cellCol(k) <= col {
		return k
	}
	return -1
}

// cellCol returns the first column (0-based) that table row o's cell k is
// over: its place in the table's slots, or without one (a row made
// otherwise) its index.
func (o *object) cellCol(k int) int {
	if k < len(o.cols) {
		return o.cols[k]
	}
	return k
}

// cellSpan returns the number of columns table row o's cell k is over.
func (o *object) cellSpan(k int) int {
	if k < len(o.spans) {
		return o.spans[k]
	}
	return 1
}

// pickContainers pairs the containers the change type names (ids or
// 1-based indexes; every container when none) in the two versions. Named
// ones are paired by id, else by index. Without names, a container is
// paired by id when the old one has an id the new version also has; the
// others by what they hold (pairContents), not by their index, so that a
// list or a table added before the others leaves them paired.
func pickContainers(old, new []*container, args []string) [][2]*container {
	index := func(cs []*container) (map[string]*container, map[int]*container) {
		byID := map[string]*container{}
		byIdx := make(map[int]*container, len(cs))
		for _, k := range cs {
			if _, dup := byID[k.id]; k.id != "" && !dup {
				byID[k.id] = k
			}
			byIdx[k.index] = k
		}
		return byID, byIdx
	}
	oldID, oldIdx := index(old)
	newID, newIdx := index(new)
	var out [][2]*container
	if len(args) > 0 {
		find := func(byID map[string]*container, byIdx map[int]*container, arg string) *container {
			if k := byID[arg]; k != nil {
				return k
			}
			if n, err := strconv.Atoi(strings.TrimPrefix(arg, "#")); err == nil {
				return byIdx[n]
			}
			return nil
		}
		for _, a := range args {
			o, n := find(oldID, oldIdx, a), find(newID, newIdx, a)
			if o != nil || n != nil {
				out = append(out, [2]*container{o, n})
			}
		}
		return out
	}
	pair := map[*container]*container{}
	usedNew := map[*container]bool{}
	for _, o := range old {
		if o.id != "" {
			if k := newID[o.id]; k != nil && !usedNew[k] {
				pair[o], usedNew[k] = k, true
			}
		}
	}
	// The others, but a new container with the id of an old one.
	var restOld, restNew []*container
	for _, o := range old {
		if pair[o] == nil {
			restOld = append(restOld, o)
		}
	}
	for _, k := range new {
		if !usedNew[k] && (k.id == "" || oldID[k.id] == nil) {
			restNew = append(restNew, k)
		}
	}
	for _, pr := range pairContents(restOld, restNew) {
		pair[pr[0]], usedNew[pr[1]] = pr[1], true
	}
	for _, o := range old {
		out = append(out, [2]*container{o, pair[o]})
	}
	for _, k := range new {
		if !usedNew[k] {
			out = append(out, [2]*container{nil, k})
		}
	}
	return out
}

// pairContents pairs containers of the old and the new version by what
// they hold: equal ones in common order (an LCS), then, between two such
// pairs, each old one with the first new one that shares the most items
// with it (a row by its first cell), and, where none shares any and as
// many are left on both sides, one to one in order (a list whose every
// item changed). A gap too large to compare every old container with
// every new one (more than maxPairItems item lookups) is paired one to one
// in order.
func pairContents(old, new []*container) [][2]*container {
	itemKey := func(o *object) string {
		if len(o.keys) > 0 && o.keys[0] != "" {
			return o.keys[0]
		}
		return o.key
	}
	counts := func(k *container) map[string]int {
		m := make(map[string]int, len(k.items))
		for i := range k.items {
			m[itemKey(&k.items[i])]++
		}
		return m
	}
	in := &interner{m: map[tokenKey]int32{}}
	content := func(cs []*container) []int32 {
		t := make([]int32, len(cs))
		for i, k := range cs {
			var b strings.Builder
			for _, it := range k.items {
				b.WriteString(it.key)
				b.WriteByte(0)
			}
			t[i] = in.idn(0, int64(len(k.items)), b.String())
		}
		return t
	}
	anchors := lcs(content(old), content(new))
	var out [][2]*container
	inOrder := func(as, bs []*container) {
		for k := 0; k < len(as) && k < len(bs); k++ {
			out = append(out, [2]*container{as[k], bs[k]})
		}
	}
	i, j := 0, 0
	for _, a := range append(anchors, lcsPair{len(old), len(new)}) {
		gapOld, gapNew := old[i:a.a], new[j:a.b]
		oldItems := 0
		for _, o := range gapOld {
			oldItems += max(1, len(o.items)) // an empty one is compared too
		}
		switch {
		case len(gapOld) == 0 || len(gapNew) == 0:
		case oldItems*len(gapNew) > maxPairItems:
			inOrder(gapOld, gapNew)
		default:
			have := make([]map[string]int, len(gapNew))
			for q, n := range gapNew {
				have[q] = counts(n)
			}
			used := make([]bool, len(gapNew))
			var lone []*container // old ones that share nothing
			for _, o := range gapOld {
				oc := counts(o)
				best, bestN := -1, 0
				for q := range gapNew {
					if used[q] {
						continue
					}
					shared := 0
					for key, c := range oc {
						shared += min(c, have[q][key])
					}
					if shared > bestN {
						best, bestN = q, shared
					}
				}
				if best < 0 {
					lone = append(lone, o)
					continue
				}
				used[best] = true
				out = append(out, [2]*container{o, gapNew[best]})
			}
			var left []*container
			for q, n := range gapNew {
				if !used[q] {
					left = append(left, n)
				}
			}
			if len(lone) == len(left) {
				inOrder(lone, left)
			}
		}
		if a.a < len(old) {
			out = append(out, [2]*container{old[a.a], new[a.b]})
		}
		i, j = a.a+1, a.b+1
	}
	return out
}

// maxPairItems bounds the work of pairing the containers of one gap by
// their items (pairContents): the old containers' items (one at least for
// each) times the new containers.
const maxPairItems = 1 << 20
