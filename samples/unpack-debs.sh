# Sourced by a sample's regenerate.sh: unpack_debs DIR PACKAGE... downloads Debian packages and
# unpacks them into DIR/root, nothing installed (no root needed). apt-get download needs only apt's
# package lists; where there are none (or they are stale), it fetches its own into DIR.
unpack_debs() {
  local tools="$1"
  shift
  rm -rf "$tools"
  mkdir -p "$tools/debs" "$tools/root"
  if ! (cd "$tools/debs" && apt-get download "$@"); then
    local apt=(-o "Dir::State::Lists=$tools/lists" -o "Dir::Cache=$tools/cache" -o Debug::NoLocking=1)
    mkdir -p "$tools/lists/partial" "$tools/cache/archives/partial"
    apt-get "${apt[@]}" update
    (cd "$tools/debs" && apt-get "${apt[@]}" download "$@")
  fi
  local deb
  for deb in "$tools"/debs/*.deb; do dpkg -x "$deb" "$tools/root"; done
}
