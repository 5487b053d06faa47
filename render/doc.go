// Package render turns a delta between two versions of a document into
// views a person can read: the new version with the inserted, deleted,
// moved and updated parts highlighted in place (Inline), both versions side
// by side with their changes marked (SideBySide), only the changed parts
// with their paths (Changes), and a plain-text list of the changes (Text).
//
// # Seed
//
// The views are those of the seed's change presentation: Cobéna's XyDiff
// viewer, which shows a version with the delta's operations highlighted
// (G. Cobéna, "Change management of semi-structured data on the Web", PhD
// thesis, 2003, §3.6 and the XyDiff tool's HTML output), and WebVigiL's
// presentation of detected changes (J. Jacob, "WebVigiL: Sentinel
// Specification and User-Intent Based Change Detection for XML", MS thesis,
// UTA, 2003, chapter 8: the changes in place, and only the changes).
//
// # Phases
//
//  1. Annotate: apply the delta to the old document (delta.Apply) and mark
//     each node of both versions by what the delta did to it: inserted,
//     deleted, moved, updated (text) or changed attributes (Mark).
//  2. Merge (Inline only): put each deleted subtree back into the new
//     version, after the nearest left sibling that survived, so that a
//     reader sees what went where it was.
//  3. Write: copy the annotated tree, wrap marked text in <ins>, <del> or
//     <mark> and give marked elements a data-vigil attribute, then serialise
//     with markup.WriteHTML.
//
// The marks are the attribute data-vigil with the values "ins", "del",
// "move", "upd" (new text), "upd-old" (old text) and "attr"; "xml" marks
// the block that holds a document that is not a page. Any data-vigil
// attribute the documents carry themselves is removed first, so a page
// cannot fake a highlight. The output is the documents' own HTML: it is
// not sanitised, and a program showing foreign pages must sanitise it.
//
// # Differences from the seed
//
//   - The seed's viewer colours a tree view of the XML; these views keep the
//     page's own HTML so that it renders as a page. A document whose root is
//     not html (a feed) is shown as the seed shows it: each element a block
//     (<div>) with its tags, comments and processing instructions as text
//     in <code> (written as HTML comments, a processing instruction whose
//     data holds "-->" would end one early), since its elements are not
//     HTML's (a feed's <title> would be read as raw text, its <link> as
//     void, and a sanitiser would drop the others with their marks).
//   - Text inside raw-text elements (title, script, style, textarea) is never
//     wrapped, since a browser would show the wrapper as text.
//   - A moved subtree is marked at its new place only (and at its old place
//     in the side-by-side view).
//   - A view that shortens a long text (the text view, a changed
//     attribute's values, vigil diff's summary) cuts it at the edge of a
//     character as a reader sees it: between two extended grapheme
//     clusters of Unicode's UAX #29 (rules GB3 to GB13; ClusterBoundary,
//     ClusterCut), never between CR and LF, inside a Hangul syllable,
//     between a letter and its accents, inside an Indic conjunct (क्ष), an
//     emoji and its skin tone or ZWJ sequence, or the two halves of a
//     flag. The package takes no dependency for it, and where the
//     standard library (Unicode 15.0 in Go 1.26) has no table, one is
//     written by hand: Extended_Pictographic from emoji-data.txt of
//     Unicode 15.0 (the blocks kept for future emoji included), the
//     Indic_Conjunct_Break consonants and linkers of Unicode 15.1's
//     DerivedCoreProperties.txt for GB9c, Hangul syllable types from the
//     jamo and syllable ranges, Prepend letters and the SpacingMark
//     exceptions from UAX #29 and GraphemeBreakProperty.txt. Two
//     approximations remain: Indic_Conjunct_Break=Extend is taken as every
//     Extend or ZWJ that is not a linker (Unicode 15.1 leaves out the
//     marks of combining class 0, for which the standard library has no
//     table), and characters that later Unicode versions assign are
//     classed as unassigned ones are.
//   - A cut looks at most MaxClusterRunes (1 024) runes each way and
//     reads each at most twice, so it costs the same on any text: a
//     longer cluster (a letter under more than a thousand marks) is cut
//     where asked, and in a run of more than MaxClusterRunes regional
//     indicators or marks, a place whose side of a flag, an emoji ZWJ
//     sequence or a conjunct depends on where the run starts is passed
//     over. ClusterBoundary alone reads back to the start of such a run
//     and is exact.
//   - The text view shows a subtree by its texts joined as a reader reads
//     them (markup.JoinTexts, which vigil diff's summary shares): texts of
//     different elements apart, a word split by inline HTML markup whole.
package render
