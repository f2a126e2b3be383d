// Recordings on disk are one zstd frame around their MessagePack stream
// (docs/recording_format.md, "Compression"); readers take that or the bare stream.
#pragma once

#include <string>
#include <string_view>

struct ZSTD_CCtx_s;

namespace strut::record {

// Whether `bytes` start with the magic number of a zstd frame (28 b5 2f fd).
bool is_compressed(std::string_view bytes);

// The content of one or more zstd frames. Damaged or cut frames are a RecordingError
// "<label>: compressed stream: <problem>".
std::string decompress(std::string_view bytes, std::string_view label);

// Compresses a stream handed over piece by piece into one zstd frame.
class Compressor {
 public:
  Compressor();
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;
  // Appends to `out` what the frame holds so far after `bytes` (zstd keeps up to a block,
  // 128 KiB, until it is full); `last` ends the frame.
  void add(std::string_view bytes, bool last, std::string& out);

 private:
  ZSTD_CCtx_s* context_;
};

}  // namespace strut::record
