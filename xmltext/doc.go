// Package xmltext writes strings as XML 1.0 character data and attribute
// values, and checks that strings hold only characters XML can hold. It is
// the one escaper of Vigil's XML writers: markup's WriteXML, delta's
// XyDelta encoder and xmlpatch's Encode differ only in the Options they
// give it.
//
// What every escaper escapes is what a parser would otherwise not read
// back as written:
//
//   - in character data (Text), & and <, > (so that "]]>" never appears),
//     and a carriage return, which a parser reads as a line feed;
//   - in an attribute value between double quotes (Attr), &, < and ", and
//     tab, newline and carriage return, which attribute-value
//     normalisation turns into spaces; > too if Options.EscapeGT says so;
//   - in the text of a comment, a processing instruction or a name (Raw),
//     nothing: XML has no escapes there, and the caller keeps out what
//     cannot stand there ("--", "?>").
//
// In every context, a character XML cannot hold (its Char production: a
// C0 control other than tab, newline and carriage return, U+FFFE, U+FFFF,
// or a byte that is not UTF-8) is either replaced by U+FFFD
// (Options.Replace) or reported as a *CharError. XML cannot hold these
// even as character references (&#1; is not well-formed).
//
// An Escaper scans its input once, looking each byte up in a table of 256
// entries, and writes each run of bytes that need no escape with one call;
// a byte from 0x80 up costs a UTF-8 decode of its character, ASCII text
// nothing more than the lookup.
//
// It is written here because encoding/xml's EscapeText does not fit: it
// escapes every quote, tab and newline in character data too (a document
// written with it is not byte for byte the one read, as the golden files
// and the XyDelta format expect), it always replaces a character XML
// cannot hold where the delta and patch encoders must refuse it, and it
// has no option for the references' base or for > in attributes.
package xmltext
