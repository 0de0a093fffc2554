import Foundation

/// A real nginx (Debian's `nginx-light`, installed by `make test`) with a config written by the test, run in the
/// foreground as a child process under a temporary prefix.
struct Nginx {
    let process: LocalProcess

    static let executable = "/usr/sbin/nginx"

    /// Starts nginx with `http` as the body of its `http { }` block and waits until `readyURL` answers.
    static func start(http: String, readyURL: String) async throws -> Nginx {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LocalProcessError.missing("\(executable): run `make test`, which installs nginx-light")
        }
        let directory = try LocalProcess.temporaryDirectory("nginx")
        let temp = directory.appendingPathComponent("tmp").path
        let config = """
            daemon off;
            master_process off;
            user root;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 512; }
            http {
                access_log off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
            \(http)
            }
            """
        try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("nginx.conf")
        try Data(config.utf8).write(to: path)
        let process = try LocalProcess.start(
            executable, ["-c", path.path, "-p", directory.path], in: directory, log: "nginx")
        do {
            try await LocalProcess.waitUntilAnswering(readyURL, seconds: 10)
        } catch {
            process.stop()
            throw error
        }
        return Nginx(process: process)
    }
}
