package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Test support, shared through this module's test-jar: a child JVM that sees the kafka-serde-native jar as a
 * platform it was not built for does (everything but {@code native/}), to prove the fallback of whatever sits
 * on top of the loader (the bijou64 codec's {@code NativeFallbackTest}, StreamFusion's
 * {@code RowDataNativeFallbackTest}).
 */
public final class WithoutTheLibrary {
    private WithoutTheLibrary() {}

    /** @return where kafka-serde-native is on this class path: its jar or, in an IDE, its classes folder */
    public static Path nativeModuleLocation() throws Exception {
        return Path.of(NativeLibrary.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    /**
     * The kafka-serde-native jar without its library: everything but {@code native/} (the libraries and
     * {@code platforms.txt}), written to {@code dir}.
     *
     * @return the stripped jar
     */
    public static Path jarWithoutTheLibrary(Path dir) throws Exception {
        Path location = nativeModuleLocation();
        Path stripped = dir.resolve("kafka-serde-native-without-library.jar");
        try (FileSystem source = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location);
                FileSystem target = FileSystems.newFileSystem(stripped, Map.of("create", "true"))) {
            Path root = source == null ? location : source.getPath("/");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    String entry = root.relativize(file).toString().replace(File.separatorChar, '/');
                    if (!entry.startsWith("native/")) {
                        Path copy = target.getPath("/" + entry);
                        Files.createDirectories(copy.getParent());
                        Files.copy(file, copy);
                    }
                }
            }
        }
        return stripped;
    }

    /**
     * @return this JVM's class path with kafka-serde-native replaced by {@link #jarWithoutTheLibrary} (written
     *     to {@code dir})
     */
    public static String classPath(Path dir) throws Exception {
        Path location = nativeModuleLocation().normalize();
        Path stripped = jarWithoutTheLibrary(dir);
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry ->
                        Path.of(entry).toAbsolutePath().normalize().equals(location) ? stripped.toString() : entry)
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(
                classPath.contains(stripped.toString()), "kafka-serde-native is not on the class path: " + classPath);
        return classPath;
    }

    /**
     * Runs {@code main} in a child JVM (this JVM's {@code java}) and asserts it exits 0 within 60 seconds.
     *
     * @param classPath the child's class path
     * @param jvmOptions options before the class name ({@code -Dname=value}...)
     * @return the child's standard output and error, interleaved
     */
    public static String run(String classPath, List<String> jvmOptions, Class<?> main)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, main.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /**
     * Asserts the loader's one warning in a child's {@code output}: the library unavailable, the platforms the
     * jar covers (none, once stripped) and how to build it.
     */
    public static void assertOneWarningNamingCoverage(String output) {
        assertTrue(output.contains("this jar bundles libkafka_serde_native for no platform"), output);
        assertTrue(output.contains("cargo build --release -p kafka-serde-native"), output);
        assertEquals(1, output.split("native library unavailable", -1).length - 1, output);
        // Through SLF4J (the simple logger of the tests' class path), at WARN.
        assertTrue(output.contains("WARN org.bijou64.NativeLibrary - bijou64: native library unavailable"), output);
    }
}
