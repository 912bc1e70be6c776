package org.bijou64.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The secured broker of {@code scripts/security-tests.sh} as the security tests see it: the super user's
 * {@link Admin}, users made with a fresh random password and exactly the ACLs a test names, the broker's
 * authorizer log, and every password made or given, which no log line or error may contain.
 *
 * <p>Where it is: {@code KAFKA_SECURE_BOOTSTRAP_SERVERS} (the broker's {@code SASL_SSL} listener),
 * {@code KAFKA_SECURE_ADMIN_CONFIG} (the super user's client settings, {@code run/admin.properties} of the broker's
 * home) and {@code KAFKA_SECURE_LOG_DIR} (its logs folder; optional: without it, nothing is read from the logs).
 * One per test class: {@link #connect()} in {@code @BeforeAll}, {@link #close()} in {@code @AfterAll}.
 */
final class SecureBroker implements AutoCloseable {
    /** The broker's {@code SASL_SSL} listener, or null when the tests are not run against one. */
    static final String BOOTSTRAP = System.getenv("KAFKA_SECURE_BOOTSTRAP_SERVERS");
    /** The super user's client settings file, or null. */
    static final String ADMIN_CONFIG = System.getenv("KAFKA_SECURE_ADMIN_CONFIG");
    /** The broker's logs folder, or null. */
    static final String LOG_DIR = System.getenv("KAFKA_SECURE_LOG_DIR");
    /** Why the tests are skipped when {@link #configured()} is false. */
    static final String NOT_CONFIGURED =
            "KAFKA_SECURE_BOOTSTRAP_SERVERS and KAFKA_SECURE_ADMIN_CONFIG are not set: run scripts/security-tests.sh";

    private static final Pattern JAAS_PASSWORD = Pattern.compile("password=\"([^\"]*)\"");
    /** The settings every user's client shares with the super user's: where, how, and the trust store. */
    private static final List<String> CONNECTION = List.of(
            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
            CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
            SaslConfigs.SASL_MECHANISM,
            "ssl.truststore.type",
            "ssl.truststore.location",
            "ssl.truststore.password");

    private final Properties adminProps;
    private final Admin admin;
    private final List<String> secrets = new ArrayList<>();

    private SecureBroker(Properties adminProps) {
        this.adminProps = adminProps;
        Matcher m = JAAS_PASSWORD.matcher(adminProps.getProperty(SaslConfigs.SASL_JAAS_CONFIG));
        assertTrue(m.find(), "the admin settings hold a SCRAM login");
        secrets.add(m.group(1));
        secrets.add(adminProps.getProperty("ssl.truststore.password"));
        this.admin = Admin.create(adminProps);
    }

    /** Whether the environment names a secured broker ({@link #BOOTSTRAP} and {@link #ADMIN_CONFIG} set). */
    static boolean configured() {
        return BOOTSTRAP != null && ADMIN_CONFIG != null;
    }

    /** The super user's connection to the broker the environment names; its passwords become secrets. */
    static SecureBroker connect() throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(Paths.get(ADMIN_CONFIG))) {
            props.load(in);
        }
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        return new SecureBroker(props);
    }

    /** The super user's admin client. */
    Admin admin() {
        return admin;
    }

    /** The super user's client settings (a copy). */
    Properties adminProperties() {
        Properties copy = new Properties();
        copy.putAll(adminProps);
        return copy;
    }

    /**
     * Makes user {@code name} with a fresh password (a secret from now on) and exactly {@code acls}; returns its
     * client settings: the connection's, and its SCRAM login.
     */
    Properties user(String name, List<AclBinding> acls) throws Exception {
        String password = newPassword();
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                        name, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)))
                .all()
                .get();
        if (!acls.isEmpty()) {
            admin.createAcls(acls).all().get();
        }
        Properties props = new Properties();
        for (String key : CONNECTION) {
            props.put(key, adminProps.getProperty(key));
        }
        props.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(name, password));
        return props;
    }

    /** A fresh random password, a secret from now on (18 random bytes, URL-safe Base64). */
    String newPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        secrets.add(password);
        return password;
    }

    /** Fails if {@code text}, found in {@code where}, contains any secret (without repeating it). */
    void assertNoSecret(String text, String where) {
        for (String secret : secrets) {
            assertFalse(text.contains(secret), "a password appears in " + where);
        }
    }

    /** Every regular file of the broker's logs folder; none without {@link #LOG_DIR}. */
    static List<Path> logFiles() throws IOException {
        List<Path> logs = new ArrayList<>();
        if (LOG_DIR != null) {
            try (Stream<Path> files = Files.list(Paths.get(LOG_DIR))) {
                files.filter(Files::isRegularFile).forEach(logs::add);
            }
        }
        return logs;
    }

    /**
     * The broker's authorizer log line ({@code kafka.authorizer.logger}, in {@code server.log}) that denied
     * {@code user} an operation on a resource whose description starts with {@code resource} (e.g.
     * {@code "Topic:LITERAL:orders "}, with the space for that topic alone): where the operation Kafka checked is
     * named (the client's exception names only the resource). Fails if there is none; "not checked" without
     * {@link #LOG_DIR}.
     */
    static String denial(String user, String resource) throws IOException {
        if (LOG_DIR == null) {
            return "not checked";
        }
        String prefix = "Principal = User:" + user + " is Denied operation = ";
        try (Stream<String> lines = Files.lines(Paths.get(LOG_DIR, "server.log"))) {
            return lines.filter(l -> l.contains(prefix) && l.contains("on resource = " + resource))
                    .map(l -> l.substring(l.indexOf(prefix)))
                    .findFirst()
                    .orElseGet(() -> fail("server.log has no denial of " + resource + " to User:" + user));
        }
    }

    /** An ACL allowing {@code user} the {@code operation} on the resource {@code type} {@code name} (literal). */
    static AclBinding allow(String user, ResourceType type, String name, AclOperation operation) {
        return allow(user, type, name, PatternType.LITERAL, operation);
    }

    /** An ACL allowing {@code user} the {@code operation} on the resources {@code type} {@code name} matches. */
    static AclBinding allow(String user, ResourceType type, String name, PatternType pattern, AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    /** The SCRAM login of {@code user} with {@code password} ({@code sasl.jaas.config}). */
    static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                + password + "\";";
    }

    @Override
    public void close() {
        admin.close();
    }
}
