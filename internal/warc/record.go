package warc

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"strings"
	"time"
)

// Record types of WARC 1.1.
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// ProfileIdenticalPayload is the revisit profile for a payload identical to
// the one of the record named by WARC-Refers-To.
const ProfileIdenticalPayload = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

// Field names used by this package.
const (
	FieldType           = "WARC-Type"
	FieldRecordID       = "WARC-Record-ID"
	FieldDate           = "WARC-Date"
	FieldContentLength  = "Content-Length"
	FieldContentType    = "Content-Type"
	FieldTargetURI      = "WARC-Target-URI"
	FieldConcurrentTo   = "WARC-Concurrent-To"
	FieldRefersTo       = "WARC-Refers-To"
	FieldRefersToURI    = "WARC-Refers-To-Target-URI"
	FieldRefersToDate   = "WARC-Refers-To-Date"
	FieldProfile        = "WARC-Profile"
	FieldBlockDigest    = "WARC-Block-Digest"
	FieldPayloadDigest  = "WARC-Payload-Digest"
	FieldWarcinfoID     = "WARC-Warcinfo-ID"
	FieldFilename       = "WARC-Filename"
	FieldIdentifiedType = "WARC-Identified-Payload-Type"
	FieldTruncated      = "WARC-Truncated"
	FieldSegmentNumber  = "WARC-Segment-Number"
	// FieldSegmentOriginID names, in a continuation record, the record
	// whose first segment it continues.
	FieldSegmentOriginID = "WARC-Segment-Origin-ID"
	// FieldSegmentTotalLength, in the last continuation record, is the
	// length of the blocks of all the segments joined.
	FieldSegmentTotalLength = "WARC-Segment-Total-Length"
)

// Field is one named field of a record header.
type Field struct {
	Name, Value string
}

// Header is a record's named fields, in order.
type Header []Field

// Get returns the value of the first field called name (case-insensitive).
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Set replaces the value of the field called name, or adds it.
func (h *Header) Set(name, value string) {
	for i, f := range *h {
		if strings.EqualFold(f.Name, name) {
			(*h)[i].Value = value
			return
		}
	}
	*h = append(*h, Field{name, value})
}

// Record is one WARC record: its version line, header and content block.
type Record struct {
	Version string // "WARC/1.1" when written
	Header  Header
	Block   []byte
}

// Type returns the record's WARC-Type.
func (r *Record) Type() string { return r.Header.Get(FieldType) }

// ID returns the record's WARC-Record-ID without angle brackets.
func (r *Record) ID() string { return StripID(r.Header.Get(FieldRecordID)) }

// Date parses the record's WARC-Date.
func (r *Record) Date() (time.Time, error) { return ParseDate(r.Header.Get(FieldDate)) }

// StripID removes the angle brackets around a record id.
func StripID(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "<"), ">")
}

// BracketID puts a record id in angle brackets.
func BracketID(s string) string { return "<" + StripID(s) + ">" }

// FormatDate formats t as a WARC-Date: UTC, to the second, with a fraction
// only when t has one.
func FormatDate(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.999999999Z")
}

// ParseDate parses a WARC-Date (W3C-ISO8601: a date, optionally to the
// second and a fraction).
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04Z07:00", "2006-01-02T15Z07:00", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("warc: bad WARC-Date %q", s)
}

// Digest returns the WARC digest of b: "sha1:" and the base32 SHA-1.
func Digest(b []byte) string {
	h := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(h[:])
}

// NewID returns a random record id, "urn:uuid:" and a version 4 UUID.
func NewID() string {
	var u [16]byte
	rand.Read(u[:])
	return formatUUID(u, 4)
}

// NameID returns a record id derived from name (a version 5 style UUID from
// SHA-1), so that exporting the same thing twice gives the same ids.
func NameID(name string) string {
	h := sha1.Sum([]byte("vigil:" + name))
	var u [16]byte
	copy(u[:], h[:16])
	return formatUUID(u, 5)
}

func formatUUID(u [16]byte, version byte) string {
	u[6] = u[6]&0x0f | version<<4
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
