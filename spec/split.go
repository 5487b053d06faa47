package spec

import "sort"

// Split returns one File per sentinel of f, in source order, each holding
// the sentinel and the comments of its own text, as Print places them
// (see attach): those on the lines above its Create line (after the
// previous sentinel's closing ones), those inside and at the end of its
// clauses, and the indented ones after its last clause; the comments
// after the last sentinel go with it. Each comment of f is in one part,
// so that a sentinel of a file stored on its own (vigil sentinel add)
// keeps its notes and no other's. A file without sentinels has no part.
// The parts share their nodes with f.
func Split(f *File) []*File {
	if len(f.Sentinels) == 0 {
		return nil
	}
	p := &printer{}
	p.attach(f)
	parts := make([]*File, len(f.Sentinels))
	for i, s := range f.Sentinels {
		cs := append([]*Comment(nil), p.before[s]...)
		for _, n := range units(s) {
			cs = append(cs, p.leading[n]...)
			cs = append(cs, p.trailing[n]...)
			cs = append(cs, p.inside[n]...)
		}
		cs = append(cs, p.closing[s]...)
		if i == len(f.Sentinels)-1 {
			cs = append(cs, p.after...)
		}
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].Hash.Offset < cs[b].Hash.Offset })
		parts[i] = &File{Name: f.Name, Sentinels: []*Sentinel{s}, Comments: cs}
		if i+1 < len(f.Sentinels) {
			parts[i].end = f.Sentinels[i+1].Create.Offset
		}
	}
	return parts
}
