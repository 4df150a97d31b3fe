# Sourced by the checks that read pictures with Pillow (render.sh, decode.sh):
# makes checks/.venv with Pillow in it when it is missing, and sets $python
# to its interpreter.
venv=checks/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import PIL" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check pillow
fi
python="$venv/bin/python"
