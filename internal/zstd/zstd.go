// Package zstd is the body codec of the warehouse (vigil.BodyCodec) on
// github.com/klauspost/compress/zstd.
//
// A body is compressed as one zstd frame. A patch of a target body against
// a base body is a zstd frame of the target compressed with the base as a
// raw dictionary (zstd's "raw content" dictionaries): every run the two
// share becomes a back-reference into the base, so a page that changed 1 %
// costs about 1 % of its compressed size, and decoding is zstd decoding,
// byte exact. The window is set to cover base and target together.
package zstd

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/vigil-web/vigil"
)

// dictID names the raw dictionary in patch frames. It carries no meaning:
// the base is always given by the caller.
const dictID = 0x5649 // "VI"

// Codec implements vigil.BodyCodec. The zero value is not usable; call New.
type Codec struct {
	level   zstd.EncoderLevel
	patch   zstd.EncoderLevel
	enc     *zstd.Encoder
	decPool sync.Pool
}

var _ vigil.BodyCodec = (*Codec)(nil)

// Level is a compression level: 1 fastest, 2 default, 3 better, 4 best.
type Level int

// New returns a codec compressing bodies at level (0 means the default,
// 2). Patches are always encoded at level 1: the dictionary (the base body)
// is indexed afresh for every patch, which the fastest level does several
// times faster, and patches of small changes come out nearly as small.
func New(level Level) (*Codec, error) {
	l := zstd.SpeedDefault
	if level > 0 {
		l = zstd.EncoderLevelFromZstd(map[Level]int{1: 1, 2: 3, 3: 7, 4: 19}[level])
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return &Codec{level: l, patch: zstd.SpeedFastest, enc: enc}, nil
}

// Compress implements vigil.BodyCodec.
func (c *Codec) Compress(body []byte) ([]byte, error) {
	return c.enc.EncodeAll(body, make([]byte, 0, len(body)/3+64)), nil
}

// Decompress implements vigil.BodyCodec.
func (c *Codec) Decompress(data []byte) ([]byte, error) {
	d, _ := c.decPool.Get().(*zstd.Decoder)
	if d == nil {
		var err error
		d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, err
		}
	}
	defer c.decPool.Put(d)
	out, err := d.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("zstd: decompress: %w", err)
	}
	return out, nil
}

// window returns a window size covering n bytes (a power of two, at least
// zstd's minimum).
func window(n int) int {
	w := zstd.MinWindowSize
	for w < n && w < zstd.MaxWindowSize {
		w *= 2
	}
	return w
}

// Diff implements vigil.BodyCodec.
func (c *Codec) Diff(base, target []byte) ([]byte, error) {
	if len(base) == 0 {
		return c.Compress(target)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(c.patch), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(window(len(base)+len(target))), zstd.WithEncoderDictRaw(dictID, base))
	if err != nil {
		return nil, fmt.Errorf("zstd: diff: %w", err)
	}
	defer enc.Close()
	return enc.EncodeAll(target, nil), nil
}

// Patch implements vigil.BodyCodec.
func (c *Codec) Patch(base, patch []byte) ([]byte, error) {
	if len(base) == 0 {
		return c.Decompress(patch)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30),
		zstd.WithDecoderMaxWindow(uint64(zstd.MaxWindowSize)), zstd.WithDecoderDictRaw(dictID, base))
	if err != nil {
		return nil, fmt.Errorf("zstd: patch: %w", err)
	}
	defer dec.Close()
	out, err := dec.DecodeAll(patch, nil)
	if err != nil {
		return nil, fmt.Errorf("zstd: patch: %w", err)
	}
	return out, nil
}
