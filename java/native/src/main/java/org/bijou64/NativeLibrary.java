package org.bijou64;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads {@code libkafka_serde_native}, the one native library of both products (the bijou64 codec and the
 * StreamFusion JSON encoder), once per JVM, in this order:
 * <ol>
 *   <li>nothing at all when the system property {@code bijou64.useJava} is {@code true};</li>
 *   <li>the file named by the system property {@code bijou64.native.path}, when set (and nothing else);</li>
 *   <li>the library bundled in this jar at {@code native/<os>-<arch>/}, extracted to a temporary file that is
 *       deleted as soon as it is loaded (the loaded library stays mapped; {@code java.io.tmpdir} keeps no
 *       copy);</li>
 *   <li>{@code System.loadLibrary("kafka_serde_native")} from {@code java.library.path}.</li>
 * </ol>
 * The loaded library must report this jar's version (a stale library is refused). It logs through SLF4J (logger
 * {@code org.bijou64.NativeLibrary}, as Kafka and Flink log), once per class loader: one INFO line with the
 * library's version and where it came from when it loads, or with the property when pure Java is requested;
 * one WARN line with the reason when nothing loads. Then {@link #loadError()} keeps the reason and every codec
 * uses pure Java (the StreamFusion native encoder then refuses to open and its Flink-row encoder uses Flink's
 * Java one).
 *
 * <p>The jar names the platforms it bundles the library for in {@code native/platforms.txt}
 * ({@link #bundledPlatforms()}; {@code linux-x86_64} for the published jar). On any other platform, unless
 * {@code java.library.path} has the library, the warning says what the jar covers and how to build the
 * library there.
 *
 * <p>This class lives in the jar {@code org.bijou64:kafka-serde-native} with {@link NativeCodec}, whose
 * {@code version()} entry point the version check calls: the library exports it under that class's name.
 * The classes that declare the library's other native methods ({@code org.bijou64.NativeCodec}'s codec
 * calls, {@code org.streamfusion.kafka.NativeJsonEncoder}) are linked against the library this class loads,
 * so their jars must be loaded by the same class loader as this one (on one class path, or all in one job
 * or plugin jar). Callers check {@link #isLoaded()} before any native call.
 */
public final class NativeLibrary {
    static final String LIBRARY = "kafka_serde_native";
    private static final Logger LOG = LoggerFactory.getLogger(NativeLibrary.class);
    private static final String EXPECTED_VERSION = jarVersion();
    private static final List<String> BUNDLED_PLATFORMS = readBundledPlatforms();
    private static final Throwable LOAD_ERROR = load();

    private NativeLibrary() {}

    /** @return true when the native library is loaded and usable */
    public static boolean isLoaded() {
        return LOAD_ERROR == null;
    }

    /** @return why the native library is not in use, if it is not */
    public static Optional<Throwable> loadError() {
        return Optional.ofNullable(LOAD_ERROR);
    }

    /** @return the version the loaded library reported, if loaded */
    public static Optional<String> version() {
        return isLoaded() ? Optional.of(NativeCodec.version()) : Optional.empty();
    }

    /**
     * @return the platforms ({@code <os>-<arch>}, such as {@code linux-x86_64}) this jar bundles the library
     *     for; empty for a jar built without it ({@code -Dbijou64.skipNative=true})
     */
    public static List<String> bundledPlatforms() {
        return BUNDLED_PLATFORMS;
    }

    /** @return true when pure Java is requested by the system property {@code bijou64.useJava} */
    static boolean javaForced() {
        return Boolean.parseBoolean(
                System.getProperty("bijou64.useJava", "false").trim());
    }

    private static Throwable load() {
        if (javaForced()) {
            LOG.info("bijou64: native library not loaded, pure-Java paths requested by -Dbijou64.useJava=true");
            return new UnsupportedOperationException("native library not loaded: -Dbijou64.useJava=true");
        }
        Throwable error;
        try {
            String explicit = System.getProperty("bijou64.native.path", "").trim();
            String source;
            if (!explicit.isEmpty()) {
                Path file = Path.of(explicit).toAbsolutePath();
                System.load(file.toString());
                source = file + " (-Dbijou64.native.path)";
            } else {
                source = loadBundledOrFromLibraryPath();
            }
            String version = NativeCodec.version();
            if (!version.equals(EXPECTED_VERSION)) {
                throw new UnsatisfiedLinkError(
                        "stale native library: it reports version " + version + ", this jar needs " + EXPECTED_VERSION);
            }
            LOG.info("bijou64: native library lib{} {} loaded from {}", LIBRARY, version, source);
            return null;
        } catch (LinkageError | RuntimeException e) {
            error = e;
        }
        LOG.warn(
                "bijou64: native library unavailable, using the pure-Java paths (bijou64's Java"
                        + " codec; StreamFusion: Flink's JSON serializer) ({})",
                error.getMessage());
        return error;
    }

    /**
     * The bundled library, else {@code java.library.path}; when both fail, the error says why each did, or,
     * when the jar has no library for this platform, which platforms it has and how to build one here.
     *
     * @return where the loaded library came from, for the log line
     */
    private static String loadBundledOrFromLibraryPath() {
        Throwable bundled = null;
        try {
            Optional<String> resource = loadBundled();
            if (resource.isPresent()) {
                return resource.get();
            }
        } catch (IOException | LinkageError e) {
            bundled = e;
        }
        try {
            System.loadLibrary(LIBRARY);
            return "java.library.path";
        } catch (UnsatisfiedLinkError e) {
            if (bundled == null) {
                String covered = BUNDLED_PLATFORMS.isEmpty() ? "no platform" : String.join(", ", BUNDLED_PLATFORMS);
                UnsatisfiedLinkError elsewhere = new UnsatisfiedLinkError("this jar bundles lib" + LIBRARY
                        + " for " + covered + ", not for " + platform() + ", and " + e.getMessage()
                        + "; to use it here, build it from the " + EXPECTED_VERSION
                        + " sources (cargo build --release -p kafka-serde-native)"
                        + " and pass -Dbijou64.native.path=<the built library>");
                elsewhere.initCause(e);
                throw elsewhere;
            }
            UnsatisfiedLinkError both =
                    new UnsatisfiedLinkError("bundled library failed (" + bundled + "), and " + e.getMessage());
            both.addSuppressed(bundled);
            throw both;
        }
    }

    /**
     * Extracts and loads the library bundled in the jar.
     *
     * @return the resource's URL (the jar it is in), or empty when this jar has none for this platform
     */
    private static Optional<String> loadBundled() throws IOException {
        String resource = "/native/" + platform() + "/" + System.mapLibraryName(LIBRARY);
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            Path file = Files.createTempFile("lib" + LIBRARY + "-", ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } finally {
                removeExtracted(file);
            }
            return Optional.of(String.valueOf(NativeLibrary.class.getResource(resource)));
        }
    }

    /**
     * Deletes an extracted copy as soon as {@code System.load} has returned, loaded or not: on Linux and macOS
     * the loaded library stays mapped after its file is unlinked, so nothing is left in the temporary directory,
     * even after a SIGKILL, however many class loaders (one per job in a Flink session cluster) load their own
     * copy. Where a loaded library cannot be deleted (Windows), the file is deleted when the JVM exits.
     */
    private static void removeExtracted(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }

    /** {@code native/platforms.txt}: one platform a line, written by the build next to the libraries. */
    private static List<String> readBundledPlatforms() {
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/native/platforms.txt")) {
            if (in == null) {
                return List.of();
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty())
                    .toList();
        } catch (IOException e) {
            return List.of(); // unreadable: the warning then says no platform, which is what this jar gives
        }
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osPart = os.contains("mac") ? "macos" : os.contains("win") ? "windows" : "linux";
        String archPart = arch.equals("amd64") || arch.equals("x86_64")
                ? "x86_64"
                : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : arch;
        return osPart + "-" + archPart;
    }

    /** The Maven version of this jar without {@code -SNAPSHOT}: the Cargo version of the matching library. */
    private static String jarVersion() {
        Properties properties = new Properties();
        try (InputStream in = NativeLibrary.class.getResourceAsStream("bijou64.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // fall through: an unknown version refuses every library
        }
        return properties.getProperty("version", "unknown").replace("-SNAPSHOT", "");
    }
}
