package warc

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// arcMagic is how an ARC file begins: its first record is its filedesc://
// version block.
const arcMagic = "filedesc://"

// FieldIPAddress is the WARC field of the address a record was fetched
// from, which an ARC header line gives.
const FieldIPAddress = "WARC-IP-Address"

// arcFields is the number of fields of an ARC header line after the URL:
// IP-address, Archive-date, Content-type and Archive-length in version 1;
// Result-code, Checksum, Location, Offset and Filename too, before the
// length, in version 2.
var arcFields = map[string]int{"1": 4, "2": 9}

// nextARC reads the rest of the ARC record whose header line is line,
// and returns it as a WARC record (see doc.go, "ARC files").
func (r *Reader) nextARC(line string) (*Record, error) {
	fields := strings.Fields(line)
	desc := strings.HasPrefix(line, arcMagic)
	after := r.arcAfter
	if desc {
		// The version block says which version the header lines are;
		// its own line has the URL, address, date and type first
		// whatever the version, and the length last.
		after = 4
	}
	if len(fields) < after+1 {
		return nil, fmt.Errorf("warc: %s: ARC header line %q: %d fields, want %d", r.where(), truncateAt(line, 200), len(fields), after+1)
	}
	n, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("warc: %s: ARC header line %q: its last field, the length, is not a number", r.where(), truncateAt(line, 200))
	}
	url := strings.Join(fields[:len(fields)-after], " ")
	if desc {
		url = fields[0]
	}
	tail := fields[len(fields)-after:]
	ip, date, ct := tail[0], tail[1], tail[2]
	if desc {
		ip, date, ct = fields[1], fields[2], fields[3]
	}
	block, limit, err := r.readBlock(n, url)
	if err != nil {
		return nil, err
	}
	id := arcID(url, date, r.start)
	rec := &Record{Version: "ARC/" + r.arcVersion, Header: Header{
		{Name: FieldType, Value: TypeResource},
		{Name: FieldRecordID, Value: BracketID(id)},
		{Name: FieldDate, Value: arcDate(date)},
		{Name: FieldTargetURI, Value: url},
		{Name: FieldIPAddress, Value: ip},
		{Name: FieldContentType, Value: ct},
	}}
	if n > limit {
		return rec, r.tooLongError(url, n, limit)
	}
	rec.Block = block
	switch {
	case desc:
		rec.Header[0].Value = TypeWarcinfo
		version, _, _ := strings.Cut(string(rec.Block), " ")
		if after, ok := arcFields[version]; ok {
			r.arcVersion, r.arcAfter = version, after
		} else {
			return rec, fmt.Errorf("warc: %s (%s): ARC version %q, want 1 or 2", r.where(), url, truncate(version))
		}
		rec.Version = "ARC/" + version
	case bytes.HasPrefix(rec.Block, []byte("HTTP/")):
		rec.Header[0].Value = TypeResponse
		rec.Header.Set(FieldContentType, "application/http; msgtype=response")
	}
	return rec, nil
}

// arcDate returns the WARC-Date of an ARC Archive-date (YYYYMMDDhhmmss,
// or fewer digits: to the day, the hour, the minute; more digits, a
// fraction of a second some crawlers add, are dropped), or date as it is
// if it is none, for the caller's ParseDate to refuse.
func arcDate(date string) string {
	digits := date
	if len(digits) > 14 {
		digits = digits[:14]
	}
	if strings.Trim(digits, "0123456789") != "" {
		return date
	}
	for _, layout := range []string{"20060102150405", "200601021504", "2006010215", "20060102", "200601", "2006"} {
		if len(layout) == len(digits) {
			if t, err := time.Parse(layout, digits); err == nil {
				return FormatDate(t)
			}
		}
	}
	return date
}

// arcID derives an ARC record's id, which ARC has none of, from its URL,
// date and offset: reading a file twice gives the same ids.
func arcID(url, date string, offset int64) string {
	h := sha1.Sum([]byte("arc " + url + " " + date + " " + strconv.FormatInt(offset, 10)))
	var u [16]byte
	copy(u[:], h[:16])
	return formatUUID(u, 5)
}

func truncateAt(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
