// A list of numbers as gdsl source writes it, `[1, 2, 3]`, for tests that
// build positions and constants as text.
#pragma once

#include <string>
#include <vector>

namespace testing {

template <typename Number>
std::string listText(const std::vector<Number>& numbers) {
  std::string out = "[";
  for (size_t i = 0; i < numbers.size(); ++i) out += (i ? ", " : "") + std::to_string(numbers[i]);
  return out + "]";
}

}  // namespace testing
