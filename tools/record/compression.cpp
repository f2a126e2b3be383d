#include "tools/record/compression.hpp"

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <new>
#include <stdexcept>

#include "tools/record/recording.hpp"

namespace strut::record {
namespace {

// Level 1: on `tumbler` (300 steps) as small as the default level 3 to 0.4 %, for 0.05 ms of
// CPU a frame instead of 0.14 (docs/architecture.md, "Libraries for the tools' formats and
// command line").
constexpr int kLevel = 1;

}  // namespace

bool is_compressed(std::string_view bytes) {
  return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("\x28\xb5\x2f\xfd", 4);
}

std::string decompress(std::string_view bytes, std::string_view label) {
  auto fail = [&](const std::string& problem) {
    throw RecordingError(std::string(label) + ": compressed stream: " + problem);
  };
  const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(),
                                                                        ZSTD_freeDCtx);
  if (!context) throw std::bad_alloc();
  // A frame written piece by piece does not say its size: its content is appended a block at a
  // time. Reserved, not filled: fresh memory costs a page fault where it is first touched.
  std::string out, block(ZSTD_DStreamOutSize(), '\0');
  out.reserve(2 * bytes.size());  // recordings shrink 1.1 to 1.4 times (more grows as needed)
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  std::size_t status = 0;  // 0 between frames, else more of the frame is expected
  while (in.pos < in.size || status != 0) {
    ZSTD_outBuffer dst{block.data(), block.size(), 0};
    const std::size_t in_before = in.pos;
    status = ZSTD_decompressStream(context.get(), &dst, &in);
    if (ZSTD_isError(status)) fail(ZSTD_getErrorName(status));
    out.append(block.data(), dst.pos);
    // No progress with room for output: the input ended inside a frame.
    if (status != 0 && in.pos == in_before && dst.pos == 0)
      fail("truncated: the file ends inside the zstd frame");
  }
  return out;
}

Compressor::Compressor() : context_(ZSTD_createCCtx()) {
  if (!context_) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(context_, ZSTD_c_compressionLevel, kLevel);
  // A checksum of the content ends the frame, so damage inside it is found on reading.
  ZSTD_CCtx_setParameter(context_, ZSTD_c_checksumFlag, 1);
}

Compressor::~Compressor() { ZSTD_freeCCtx(context_); }

void Compressor::add(std::string_view bytes, bool last, std::string& out) {
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  const ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    const std::size_t start = out.size();
    out.resize(start + ZSTD_CStreamOutSize());
    ZSTD_outBuffer dst{out.data() + start, ZSTD_CStreamOutSize(), 0};
    const std::size_t remaining = ZSTD_compressStream2(context_, &dst, &in, mode);
    out.resize(start + dst.pos);
    if (ZSTD_isError(remaining))
      throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(remaining));
    // Done when the input is taken and, at the end, the frame is flushed whole.
    if (last ? remaining == 0 : in.pos == in.size) return;
  }
}

}  // namespace strut::record
