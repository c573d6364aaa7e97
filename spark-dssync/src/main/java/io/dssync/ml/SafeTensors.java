package io.dssync.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dssync.replica.NamedTensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a flat float32 state as named tensors in the safetensors layout, which PyTorch, NumPy and
 * Hugging Face tooling read: an unsigned 64-bit little-endian header length N, then N bytes of UTF-8
 * JSON mapping each tensor's name to {@code {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}}
 * (byte offsets into the data that follows) plus an optional {@code "__metadata__"} map of strings, then
 * the tensors' bytes, little-endian and row-major, one after the other in the state's order.
 *
 * <p>The header is padded with spaces to a multiple of 8 bytes, so the data starts 8-byte aligned and a
 * reader can map the floats in place.
 */
final class SafeTensors {
  static final String DTYPE = "F32";
  static final String METADATA_KEY = "__metadata__";
  private static final int HEADER_ALIGNMENT = 8;
  /** Floats converted to bytes per write: bounds the buffer whatever the model's size. */
  private static final int CHUNK = 1 << 16;
  private static final ObjectMapper JSON = new ObjectMapper();

  private SafeTensors() {}

  /**
   * Writes {@code state} cut into {@code tensors} (their sizes must add up to its length, their names be
   * unique and none be {@value #METADATA_KEY}) with {@code metadata}; does not close {@code out}.
   */
  static void write(OutputStream out, List<NamedTensor> tensors, float[] state, Map<String, String> metadata)
      throws IOException {
    byte[] header = header(tensors, state.length, metadata);
    ByteBuffer length = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length);
    out.write(length.array());
    out.write(header);
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int from = 0; from < state.length; from += CHUNK) {
      int n = Math.min(CHUNK, state.length - from);
      chunk.clear();
      chunk.asFloatBuffer().put(state, from, n);
      out.write(chunk.array(), 0, n * Float.BYTES);
    }
  }

  /** The JSON header, space-padded to the alignment; refuses tensors that do not cut the state exactly. */
  static byte[] header(List<NamedTensor> tensors, int stateLength, Map<String, String> metadata) {
    ObjectNode root = JSON.createObjectNode();
    if (!metadata.isEmpty()) {
      ObjectNode meta = root.putObject(METADATA_KEY);
      metadata.forEach(meta::put);
    }
    Set<String> seen = new HashSet<>();
    long offset = 0;
    for (NamedTensor t : tensors) {
      if (t.name().equals(METADATA_KEY) || !seen.add(t.name())) {
        throw new IllegalArgumentException("tensor name '" + t.name() + "' is reserved or used twice");
      }
      ObjectNode entry = root.putObject(t.name());
      entry.put("dtype", DTYPE);
      ArrayNode shape = entry.putArray("shape");
      for (long d : t.shape()) {
        shape.add(d);
      }
      long end = offset + t.size() * Float.BYTES;
      entry.putArray("data_offsets").add(offset).add(end);
      offset = end;
    }
    if (offset != (long) stateLength * Float.BYTES) {
      throw new IllegalArgumentException("the tensors hold " + offset / Float.BYTES + " floats but the state has "
          + stateLength);
    }
    byte[] json = root.toString().getBytes(StandardCharsets.UTF_8);
    int padded = (json.length + HEADER_ALIGNMENT - 1) / HEADER_ALIGNMENT * HEADER_ALIGNMENT;
    byte[] header = new byte[padded];
    System.arraycopy(json, 0, header, 0, json.length);
    java.util.Arrays.fill(header, json.length, padded, (byte) ' ');
    return header;
  }
}
