// Runs every file of the directories given on the command line through the fuzz target's
// LLVMFuzzerTestOneInput, so the seed corpus and past failures run in every test build without
// libFuzzer. Exits non-zero if a directory is empty (a corpus that silently vanished).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++files;
    }
    std::printf("%s: %d inputs replayed\n", argv[i], files);
    if (files == 0) return 1;
  }
  return 0;
}
