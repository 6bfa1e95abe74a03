#include "io/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>
#include <vector>

#include "io/json.hpp"
#include "nxv/error.hpp"
#include "nxv/ops.hpp"

namespace nxv::io {

// The file stores little-endian bytes and tensors hold native ones; they are copied as they are.
static_assert(std::endian::native == std::endian::little, "safetensors I/O assumes a little-endian host");

namespace {

// The reference implementation refuses headers above 100 MB (safetensors/src/tensor.rs, MAX_HEADER_SIZE).
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr const char* kMetadataKey = "__metadata__";

struct DTypeName {
  DType dtype;
  std::string_view name;
};
constexpr DTypeName kDTypeNames[] = {
    {DType::pred, "BOOL"}, {DType::u8, "U8"},   {DType::s8, "I8"},   {DType::s16, "I16"}, {DType::u16, "U16"},
    {DType::s32, "I32"},   {DType::u32, "U32"}, {DType::s64, "I64"}, {DType::u64, "U64"}, {DType::f16, "F16"},
    {DType::bf16, "BF16"}, {DType::f32, "F32"}, {DType::f64, "F64"}};

// "BOOL, U8, ... F64", for the error on an unknown name.
std::string known_names() {
  std::string s;
  for (const auto& d : kDTypeNames) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

std::string_view safetensors_name(DType t) {
  for (const auto& d : kDTypeNames)
    if (d.dtype == t) return d.name;
  detail::fail("save_safetensors: dtype ", nxv::name(t), " has no safetensors name");
}
std::optional<DType> dtype_from_safetensors_name(std::string_view n) {
  for (const auto& d : kDTypeNames)
    if (d.name == n) return d.dtype;
  return std::nullopt;
}

// A tensor's entry in the header: where its bytes are, relative to the start of the data.
struct Entry {
  std::string name;
  TensorType type;
  std::uint64_t begin = 0, end = 0;
};

// Reads all of `path`, a regular file, in one read of its size. Checked before it is opened: that it is a regular
// file (opening a named pipe blocks until a writer comes; a directory's "size" made a vector of 2^64 bytes). Checked
// after: that nothing follows, since /proc's files report a size of 0 whatever they hold.
std::vector<std::byte> read_regular_file(const std::filesystem::path& path) {
  auto fail = [&](const auto&... parts) { detail::fail("load_safetensors: ", path.string(), ": ", parts...); };
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) fail("cannot be opened: no such file");
  if (ec) fail("cannot be examined (", ec.message(), ")");
  if (status.type() == std::filesystem::file_type::directory) fail("is a directory, expected a safetensors file");
  if (status.type() != std::filesystem::file_type::regular)
    fail("is not a regular file (a named pipe, socket or device?), expected a safetensors file");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) fail("cannot be examined (", ec.message(), ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot be opened (", std::strerror(errno), ")");
  std::vector<std::byte> bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    fail("is ", size, " bytes long, more than there is memory to read it into");
  }
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::uintmax_t>(in.gcount()) != size)
    fail("read error: got ", in.gcount(), " of its ", size, " bytes (did it shrink while being read?)");
  if (in.peek() != std::char_traits<char>::eof())
    fail("holds more than the ", size, " bytes its size says (a /proc or device file?), expected a safetensors file");
  return bytes;
}

class Loader {
 public:
  Loader(std::span<const std::byte> bytes, std::string_view source, Backend& backend)
      : bytes_(bytes), source_(source), backend_(backend) {}

  SafetensorsFile load() {
    if (bytes_.size() < 8) fail("the file is ", bytes_.size(), " bytes long, too short for the 8-byte header length");
    std::uint64_t header_len = 0;
    std::memcpy(&header_len, bytes_.data(), 8);
    if (header_len > kMaxHeaderBytes) fail("header length ", header_len, " exceeds the limit of ", kMaxHeaderBytes);
    if (header_len > bytes_.size() - 8)
      fail("header length ", header_len, " runs past the end of the file (", bytes_.size(), " bytes, so at most ",
           bytes_.size() - 8, ")");
    const std::string_view header(reinterpret_cast<const char*>(bytes_.data()) + 8, header_len);
    if (header.empty() || header[0] != '{') fail("malformed header: it must be a JSON object starting with '{'");
    json::Value root;
    try {
      root = json::parse(header);
    } catch (const Error& e) {
      fail("malformed JSON header: ", e.what());
    }
    if (root.kind != json::Value::Kind::object)
      fail("malformed header: it is ", json::name(root.kind), ", not an object");

    const std::span<const std::byte> data = bytes_.subspan(8 + header_len);
    SafetensorsFile out;
    std::vector<Entry> entries;
    for (const auto& [name, value] : root.members) {
      if (name == kMetadataKey)
        out.metadata = metadata(value);
      else
        entries.push_back(entry(name, value, data.size()));
    }
    check_layout(entries, data.size());
    for (const Entry& e : entries) out.tensors.emplace(e.name, tensor(e, data));
    return out;
  }

 private:
  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    detail::fail("load_safetensors: ", source_, ": ", parts...);
  }

  std::map<std::string, std::string> metadata(const json::Value& v) const {
    if (v.kind != json::Value::Kind::object)
      fail("\"", kMetadataKey, "\" is ", json::name(v.kind), ", expected an object of strings");
    std::map<std::string, std::string> out;
    for (const auto& [key, value] : v.members) {
      if (value.kind != json::Value::Kind::string)
        fail("metadata \"", key, "\" is ", json::name(value.kind), ", expected a string");
      out.emplace(key, value.text);
    }
    return out;
  }

  std::uint64_t uint_member(const std::string& name, const json::Value& v, std::string_view field) const {
    const auto n = v.as_uint64();
    if (!n)
      fail("tensor \"", name, "\": ", field, " holds ",
           v.kind == json::Value::Kind::number ? v.text : json::name(v.kind), ", expected a non-negative integer");
    return *n;
  }

  Entry entry(const std::string& name, const json::Value& v, std::uint64_t data_size) const {
    if (v.kind != json::Value::Kind::object)
      fail("tensor \"", name, "\" is ", json::name(v.kind), ", expected an object");
    const json::Value* dtype = v.find("dtype");
    const json::Value* shape = v.find("shape");
    const json::Value* offsets = v.find("data_offsets");
    if (!dtype || !shape || !offsets) fail("tensor \"", name, "\" needs \"dtype\", \"shape\" and \"data_offsets\"");
    Entry e;
    e.name = name;
    if (dtype->kind != json::Value::Kind::string) fail("tensor \"", name, "\": dtype is ", json::name(dtype->kind));
    const auto t = dtype_from_safetensors_name(dtype->text);
    if (!t) fail("tensor \"", name, "\": unknown dtype \"", dtype->text, "\" (nx_vulkan reads ", known_names(), ")");
    e.type.dtype = *t;
    if (shape->kind != json::Value::Kind::array) fail("tensor \"", name, "\": shape is ", json::name(shape->kind));
    if (shape->items.size() > kMaxRank)
      fail("tensor \"", name, "\": rank ", shape->items.size(), " exceeds nx_vulkan's maximum rank ", kMaxRank);
    std::uint64_t elements = 1;
    for (const json::Value& d : shape->items) {
      const std::uint64_t dim = uint_member(name, d, "shape");
      if (dim > std::uint64_t{INT64_MAX} || __builtin_mul_overflow(elements, dim, &elements))
        fail("tensor \"", name, "\": a dimension of its shape is too large (corrupt header?)");
      e.type.shape.push_back(static_cast<std::int64_t>(dim));
    }
    if (offsets->kind != json::Value::Kind::array || offsets->items.size() != 2)
      fail("tensor \"", name, "\": data_offsets must be an array [begin, end]");
    e.begin = uint_member(name, offsets->items[0], "data_offsets");
    e.end = uint_member(name, offsets->items[1], "data_offsets");
    if (e.begin > e.end || e.end > data_size)
      fail("tensor \"", name, "\": data_offsets [", e.begin, ", ", e.end, "] are out of range: the data is ", data_size,
           " bytes");
    std::uint64_t expected = 0;
    if (__builtin_mul_overflow(elements, size_of(e.type.dtype), &expected))
      fail("tensor \"", name, "\": its shape needs more than 2^64 bytes (corrupt header?)");
    if (e.end - e.begin != expected)
      fail("tensor \"", name, "\": shape ", to_string(e.type.shape), " of ", dtype->text, " needs ", expected,
           " bytes, but data_offsets [", e.begin, ", ", e.end, "] hold ", e.end - e.begin);
    return e;
  }

  // The spec: the data is "entirely indexed, and cannot contain holes"; tensors never share bytes.
  void check_layout(std::vector<Entry> entries, std::uint64_t data_size) const {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
    std::uint64_t covered = 0;
    const Entry* previous = nullptr;
    for (const Entry& e : entries) {
      if (e.begin < covered)
        fail("tensors \"", previous->name, "\" and \"", e.name, "\" overlap (bytes ", e.begin, " to ", covered, ")");
      if (e.begin > covered) fail("bytes ", covered, " to ", e.begin, " of the data belong to no tensor (a hole)");
      covered = e.end;
      previous = &e;
    }
    if (covered != data_size)
      fail("the last ", data_size - covered,
           " bytes of the data belong to no tensor (the file is longer than its header "
           "says)");
  }

  Tensor tensor(const Entry& e, std::span<const std::byte> data) const {
    auto bytes = data.subspan(e.begin, e.end - e.begin);
    if (e.type.dtype != DType::pred) return from_bytes(bytes, e.type, backend_);
    std::vector<std::byte> bools(bytes.size());  // any non-zero byte is true; our pred holds exactly 0 or 1
    for (std::size_t i = 0; i < bytes.size(); ++i) bools[i] = std::byte{bytes[i] != std::byte{0}};
    return from_bytes(bools, e.type, backend_);
  }

  std::span<const std::byte> bytes_;
  std::string_view source_;
  Backend& backend_;
};

std::string shape_json(const Shape& s) {
  std::string out = "[";
  for (int i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace

void save_safetensors(const std::filesystem::path& path, const std::map<std::string, Tensor>& tensors,
                      const std::map<std::string, std::string>& metadata,
                      const std::function<void(const std::filesystem::path&)>& check_written) {
  std::vector<const std::pair<const std::string, Tensor>*> order;
  for (const auto& item : tensors) {
    NXV_CHECK(!item.first.empty() && item.first != kMetadataKey, "save_safetensors", path.string(), ": tensor name \"",
              item.first, "\" is reserved or empty");
    NXV_CHECK(item.second.defined(), "save_safetensors", path.string(), ": tensor \"", item.first, "\" is undefined");
    order.push_back(&item);
  }
  // Widest elements first, so each tensor's offset is a multiple of its element size.
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return size_of(a->second.dtype()) > size_of(b->second.dtype());
  });

  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> offsets;
  std::uint64_t data_size = 0;
  for (const auto* item : order) {
    const std::uint64_t n = static_cast<std::uint64_t>(item->second.size()) * size_of(item->second.dtype());
    offsets[item->first] = {data_size, data_size + n};
    data_size += n;
  }

  std::string header = "{";
  if (!metadata.empty()) {
    header += json::quote(kMetadataKey) + ":{";
    bool first = true;
    for (const auto& [k, v] : metadata)
      header += (std::exchange(first, false) ? "" : ",") + json::quote(k) + ":" + json::quote(v);
    header += "}";
  }
  for (const auto& [name, t] : tensors) {
    const auto [begin, end] = offsets[name];
    if (header.size() > 1) header += ",";
    header += json::quote(name) + ":{\"dtype\":\"" + std::string(safetensors_name(t.dtype())) +
              "\",\"shape\":" + shape_json(t.shape()) + ",\"data_offsets\":[" + std::to_string(begin) + "," +
              std::to_string(end) + "]}";
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');  // the spec allows trailing spaces; 8 + N stays 8-aligned

  const std::filesystem::path tmp = path.string() + ".tmp";
  std::error_code ec;
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    NXV_CHECK(out, "save_safetensors", tmp.string(), ": cannot be created (", std::strerror(errno), ")");
    const std::uint64_t header_len = header.size();
    out.write(reinterpret_cast<const char*>(&header_len), 8);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    std::vector<std::byte> bytes;
    for (const auto* item : order) {
      bytes.resize(static_cast<std::size_t>(item->second.size()) * size_of(item->second.dtype()));
      item->second.copy_to(bytes);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    out.close();
    NXV_CHECK(out, "save_safetensors", tmp.string(), ": write error (disk full?)");
    if (check_written) check_written(tmp);
  } catch (...) {
    std::filesystem::remove(tmp, ec);  // what is at `path` stays as it was
    throw;
  }
  std::filesystem::rename(tmp, path, ec);
  NXV_CHECK(!ec, "save_safetensors", "cannot rename ", tmp.string(), " to ", path.string(), ": ", ec.message());
}

SafetensorsFile parse_safetensors(std::span<const std::byte> bytes, std::string_view source, Backend& backend) {
  return Loader(bytes, source, backend).load();
}

SafetensorsFile load_safetensors(const std::filesystem::path& path, Backend& backend) {
  const std::vector<std::byte> bytes = read_regular_file(path);
  return parse_safetensors(bytes, path.string(), backend);
}

}  // namespace nxv::io
